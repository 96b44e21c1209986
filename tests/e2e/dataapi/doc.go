// Package dataapi holds avadata's replies as the end-to-end tests decode
// them: structs of their own with the OpenAPI document's field names, so a
// renamed or retyped field fails the decode instead of going unnoticed.
// The comments name each shape's operations by their operationId.
package dataapi
