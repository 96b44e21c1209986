package webhooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// Redundant delivery across replicas: the operator copies a node's
// webhooks and shared secret to another replica (the admin JSON-RPC's
// avadata.exportWebhooks and avadata.importWebhooks), which then delivers
// the same events under the same webhook IDs. messageId depends only on the
// webhook ID and the event's chain position, and both sign the same
// canonical bytes with the same secret, so the receiver gets identical
// deliveries from each and drops the repeats by messageId. Nothing is kept
// in step afterwards: a later change or a secret rotation on one replica is
// copied again the same way.

// Members of an exported record beyond the create request's.
const (
	fieldID        = "id"
	fieldCreatedAt = "createdAt"
)

// ReplicaDocument is what avadata.exportWebhooks returns and
// avadata.importWebhooks takes: the shared secret and every webhook's
// record (replicaRecord).
type ReplicaDocument struct {
	Secret   string            `json:"secret"`
	Webhooks []json.RawMessage `json:"webhooks"`
}

// replicaRecord is a webhook as exported: the API's reply to GET
// /v1/webhooks/{id} (which is the create request's shape plus id, status
// and createdAt) with the request's network, so an import reads it with
// the create request's own checks. The status reason is this node's.
type replicaRecord struct {
	webhookResponse
	Network string `json:"network,omitempty"`
}

// ImportedWebhook reports one imported webhook.
type ImportedWebhook struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	// Replaced is true when the node had the webhook already.
	Replaced bool `json:"replaced"`
}

// ExportWebhooks returns the shared secret and every webhook's record.
func (v *Service) ExportWebhooks(ctx context.Context) (ReplicaDocument, error) {
	s := v.s
	if s.hooks == nil {
		return ReplicaDocument{}, errors.New("this node keeps no webhooks")
	}
	secret, err := s.hooks.WebhookSecret(ctx)
	if err != nil {
		return ReplicaDocument{}, err
	}
	all, err := s.hooks.Webhooks(ctx)
	if err != nil {
		return ReplicaDocument{}, err
	}
	doc := ReplicaDocument{Secret: secret, Webhooks: make([]json.RawMessage, 0, len(all))}
	for _, h := range all {
		rec := replicaRecord{webhookResponse: webhookReply(h), Network: h.Network}
		rec.StatusReason = ""
		raw, err := json.Marshal(rec)
		if err != nil {
			return ReplicaDocument{}, fmt.Errorf("encoding webhook %s for export: %w", h.ID, err)
		}
		doc.Webhooks = append(doc.Webhooks, raw)
	}
	return doc, nil
}

// ImportWebhooks makes doc's secret this node's shared secret and creates
// or replaces each of doc's webhooks under its own ID. Every record passes
// the checks a create request does (and the target check, and the quota on
// the result) before anything is written: a bad document changes nothing.
// Webhooks this node has and doc lacks are left alone, so a large set can
// be imported in parts. An active webhook begins its events with its
// chain's next block here, like a created one: never history.
func (v *Service) ImportWebhooks(ctx context.Context, doc ReplicaDocument) ([]ImportedWebhook, error) {
	s := v.s
	if s.hooks == nil {
		return nil, errors.New("this node keeps no webhooks")
	}
	if err := checkImportedSecret(doc.Secret); err != nil {
		return nil, err
	}
	if len(doc.Webhooks) > s.cfg.maxRecords() {
		return nil, api.BadRequest("webhooks has %d records, more than this node stores (%d)", len(doc.Webhooks), s.cfg.maxRecords())
	}
	hooks := make([]webhookdata.Webhook, 0, len(doc.Webhooks))
	seen := make(map[webhookdata.ID]bool, len(doc.Webhooks))
	for i, raw := range doc.Webhooks {
		h, err := s.parseImportedWebhook(ctx, raw)
		if err != nil {
			return nil, importError(i, err)
		}
		if seen[h.ID] {
			return nil, importError(i, api.BadRequest("webhook %s is in the document twice", h.ID))
		}
		seen[h.ID] = true
		hooks = append(hooks, h)
	}

	s.limitMu.Lock()
	defer s.limitMu.Unlock()
	replaced, err := s.checkImportQuota(ctx, hooks)
	if err != nil {
		return nil, err
	}
	// Every active webhook's first height is known before anything is
	// written: a node that cannot tell its height yet refuses the whole
	// document rather than a part of it.
	for i := range hooks {
		if hooks[i].Status != webhookdata.Active {
			continue
		}
		if hooks[i].FromHeight, err = s.nextHeight(ctx, hooks[i].Chain, hooks[i].ChainID); err != nil {
			return nil, err
		}
	}
	stored, err := s.hooks.ImportWebhooks(ctx, hooks, doc.Secret)
	if err != nil {
		return nil, err
	}
	out := make([]ImportedWebhook, 0, len(stored))
	for _, h := range stored {
		out = append(out, ImportedWebhook{ID: h.ID.String(), Status: string(h.Status), Replaced: replaced[h.ID]})
	}
	return out, nil
}

// maxSecretChars bounds an imported secret; the node draws 64 hex digits.
const maxSecretChars = 256

// checkImportedSecret refuses a secret no delivery could be signed with
// sensibly. The secret itself is never part of a message.
func checkImportedSecret(secret string) error {
	if secret == "" || len(secret) > maxSecretChars {
		return api.BadRequest("secret is required: the exporting node's shared secret (1 to %d characters)", maxSecretChars)
	}
	for i := 0; i < len(secret); i++ {
		if c := secret[i]; c <= ' ' || c > '~' {
			return api.BadRequest("invalid secret: it must be printable ASCII without spaces, like the secrets nodes draw")
		}
	}
	return nil
}

// parseImportedWebhook reads an exported record: its id, status and
// createdAt, and the rest through the create request's checks.
func (s *server) parseImportedWebhook(ctx context.Context, raw json.RawMessage) (webhookdata.Webhook, error) {
	allowed := append(requestFields(webhookdata.AddressActivity), fieldNetwork, fieldID, fieldStatus, fieldCreatedAt)
	fields, err := api.DecodeJSONObject(raw, "the record", allowed)
	if err != nil {
		return webhookdata.Webhook{}, err
	}
	idText, err := requiredString(fields, "", fieldID, "the webhook's ID (a UUID)")
	if err != nil {
		return webhookdata.Webhook{}, err
	}
	id, err := webhookdata.ParseID(idText)
	if err != nil {
		return webhookdata.Webhook{}, api.BadRequest("invalid %s '%s': %v", fieldID, api.Truncate(idText), err)
	}
	statusText, err := requiredString(fields, "", fieldStatus, "'active' or 'inactive'")
	if err != nil {
		return webhookdata.Webhook{}, err
	}
	status := webhookdata.Status(statusText)
	if status != webhookdata.Active && status != webhookdata.Inactive {
		return webhookdata.Webhook{}, api.BadRequest("invalid %s '%s': must be 'active' or 'inactive'", fieldStatus, api.Truncate(statusText))
	}
	var createdAt int64
	if err := json.Unmarshal(fields[fieldCreatedAt], &createdAt); err != nil || createdAt < 0 {
		return webhookdata.Webhook{}, api.BadRequest("invalid %s: must be the creation time in milliseconds since 1970", fieldCreatedAt)
	}
	delete(fields, fieldID)
	delete(fields, fieldStatus)
	delete(fields, fieldCreatedAt)
	// A validator_activity reply names its chain (the P-chain), which its
	// create request does not take: checked against the one the request's
	// network gives rather than read.
	var validatorChainID string
	if kind, _ := api.StringFieldAt(fields, "", fieldEventType); kind == string(webhookdata.ValidatorActivity) {
		if validatorChainID, err = api.StringFieldAt(fields, "", fieldChainID); err != nil {
			return webhookdata.Webhook{}, err
		}
		delete(fields, fieldChainID)
	}
	h, err := s.parseCreateWebhookFields(fields)
	if err != nil {
		return webhookdata.Webhook{}, err
	}
	if validatorChainID != "" && validatorChainID != h.ChainID {
		return webhookdata.Webhook{}, api.BadRequest("invalid %s '%s': a validator_activity webhook of network %s watches chain %s",
			fieldChainID, api.Truncate(validatorChainID), h.Network, h.ChainID)
	}
	if err := s.checkTarget(ctx, h.URL); err != nil {
		return webhookdata.Webhook{}, err
	}
	h.ID, h.Status, h.CreatedAtMs = id, status, createdAt
	return h, nil
}

// checkImportQuota checks the node's webhooks as the import leaves them
// against maxWebhooks and the record bound, and that no imported ID names
// a webhook of another chain here. It returns the IDs the import replaces.
// The caller holds limitMu.
func (s *server) checkImportQuota(ctx context.Context, hooks []webhookdata.Webhook) (map[webhookdata.ID]bool, error) {
	all, err := s.hooks.Webhooks(ctx)
	if err != nil {
		return nil, err
	}
	after := make(map[webhookdata.ID]webhookdata.Status, len(all)+len(hooks))
	have := make(map[webhookdata.ID]webhookdata.Webhook, len(all))
	for _, h := range all {
		after[h.ID] = h.Status
		have[h.ID] = h
	}
	replaced := make(map[webhookdata.ID]bool)
	for i, h := range hooks {
		if old, ok := have[h.ID]; ok {
			if old.Chain != h.Chain {
				return nil, importError(i, api.BadRequest("webhook %s watches chain %s on this node, not %s", h.ID, old.ChainID, h.ChainID))
			}
			// Its outbox may hold events of its kind: a record of
			// another kind under the same ID would be sent them.
			if old.EventType != h.EventType {
				return nil, importError(i, api.BadRequest("webhook %s is a %s webhook on this node, not %s", h.ID, old.EventType, h.EventType))
			}
			replaced[h.ID] = true
		}
		after[h.ID] = h.Status
	}
	active := 0
	for _, st := range after {
		if st == webhookdata.Active {
			active++
		}
	}
	if active > s.cfg.MaxWebhooks {
		return nil, api.BadRequest("the import would leave %d active webhooks on this node, more than it runs (webhooks.maxWebhooks %d)",
			active, s.cfg.MaxWebhooks)
	}
	if len(after) > s.cfg.maxRecords() {
		return nil, api.BadRequest("the import would leave %d webhooks on this node, more than it stores (%d)", len(after), s.cfg.maxRecords())
	}
	return replaced, nil
}

// importError says which record a refusal is about.
func importError(i int, err error) error {
	var apiErr *api.Error
	if errors.As(err, &apiErr) {
		return api.NewError(apiErr.Status, "webhooks[%d]: %s", i, apiErr.Message)
	}
	return fmt.Errorf("webhooks[%d]: %w", i, err)
}
