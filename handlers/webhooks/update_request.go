package webhooks

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// webhookChange is what an update sets; nil leaves a member as it is.
type webhookChange struct {
	URL, Name, Description          *string
	Status                          *webhookdata.Status
	IncludeLogs, IncludeInternalTxs *bool
}

// reasonOwner is the status reason of a webhook its owner deactivated.
const reasonOwner = "deactivated by its owner"

// parseUpdateWebhookRequest reads an UpdateWebhookRequest for webhook h:
// every member optional ({} changes nothing), the include flags only for
// an address_activity webhook.
func (s *server) parseUpdateWebhookRequest(r *http.Request, h webhookdata.Webhook) (webhookChange, error) {
	var c webhookChange
	fields, err := api.ReadJSONObject(r, maxBodyBytes, []string{fieldURL, fieldName, fieldDescription, fieldStatus,
		fieldIncludeInternalTxs, fieldIncludeLogs})
	if err != nil {
		return c, err
	}
	if u, err := parseTargetURL(fields, fieldURL, false); err != nil {
		return c, err
	} else if u != "" {
		c.URL = &u
	}
	for _, t := range []struct {
		name     string
		maxChars int
		to       **string
	}{{fieldName, maxNameChars, &c.Name}, {fieldDescription, maxDescriptionChars, &c.Description}} {
		if api.IsNull(fields[t.name]) {
			continue
		}
		v, err := textField(fields, t.name, t.maxChars)
		if err != nil {
			return c, err
		}
		*t.to = &v
	}
	status, err := api.StringFieldAt(fields, "", fieldStatus)
	if err != nil {
		return c, err
	}
	switch st := webhookdata.Status(status); st {
	case "":
	case webhookdata.Active, webhookdata.Inactive:
		c.Status = &st
	default:
		return c, api.BadRequest("invalid %s '%s': must be '%s' or '%s'", fieldStatus, api.Truncate(status),
			webhookdata.Active, webhookdata.Inactive)
	}
	for _, t := range []struct {
		name string
		to   **bool
	}{{fieldIncludeLogs, &c.IncludeLogs}, {fieldIncludeInternalTxs, &c.IncludeInternalTxs}} {
		v, given, err := boolField(fields, t.name)
		if err != nil {
			return c, err
		}
		if !given {
			continue
		}
		if h.EventType != webhookdata.AddressActivity {
			return c, api.BadRequest("%s applies only to address_activity webhooks; webhook %s is %s", t.name, h.ID, h.EventType)
		}
		*t.to = &v
	}
	return c, nil
}

// applyChange writes c to webhook h and returns the stored result. A
// webhook that becomes active counts against maxWebhooks and begins its
// events with the chain's next block, as a new one does.
func (s *server) applyChange(r *http.Request, h webhookdata.Webhook, c webhookChange) (webhookdata.Webhook, error) {
	ctx := r.Context()
	if c.URL != nil {
		if err := s.checkTarget(ctx, *c.URL); err != nil {
			return webhookdata.Webhook{}, err
		}
	}
	activating := c.Status != nil && *c.Status == webhookdata.Active && h.Status != webhookdata.Active
	if activating {
		s.limitMu.Lock()
		defer s.limitMu.Unlock()
		if err := s.checkQuota(ctx, false); err != nil {
			return webhookdata.Webhook{}, err
		}
	}
	// Only a webhook made active needs the node's height (the store
	// ignores fromHeight otherwise), so other changes work while it is not
	// known. Asked for whenever the status is set active: the record may
	// have become inactive since h was read.
	var fromHeight uint64
	if c.Status != nil && *c.Status == webhookdata.Active {
		var err error
		if fromHeight, err = s.nextHeight(ctx, h.Chain, h.ChainID); err != nil {
			return webhookdata.Webhook{}, err
		}
	}
	changed, err := s.hooks.UpdateWebhook(ctx, h.ID, h.Chain, fromHeight,
		func(h webhookdata.Webhook) (webhookdata.Webhook, error) {
			set(&h.URL, c.URL)
			set(&h.Name, c.Name)
			set(&h.Description, c.Description)
			set(&h.IncludeLogs, c.IncludeLogs)
			set(&h.IncludeInternalTxs, c.IncludeInternalTxs)
			if c.Status != nil && *c.Status != h.Status {
				h.Status, h.StatusReason = *c.Status, ""
				if h.Status == webhookdata.Inactive {
					h.StatusReason = reasonOwner
				}
			}
			return h, nil
		})
	if err != nil {
		return webhookdata.Webhook{}, err
	}
	return changed, nil
}

func set[T any](to *T, v *T) {
	if v != nil {
		*to = *v
	}
}
