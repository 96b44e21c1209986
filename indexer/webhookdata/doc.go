// Package webhookdata is what a webhook is and what it is sent: the record
// the management API keeps (Webhook), the watch sets the chain writers
// match blocks against (Watches), and the signed, canonical body of one
// delivery (Envelope, Body, Sign).
//
// The data path: the management API (handlers/webhooks) stores a Webhook
// and publishes the watch sets; a chain's writer (indexer/store) matches
// each block it writes against them and puts the events into the durable
// outbox in the block's own commit; the delivery runner
// (handlers/webhooks/delivery) reads each webhook's outbox in order, signs
// every body with the shared secret and POSTs it to the webhook's URL.
package webhookdata
