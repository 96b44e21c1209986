package webhooks

import (
	"encoding/json"
	"net/http"
	"slices"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// Members of the create request (EVMAddressActivityRequest,
// PrimaryNetworkAddressActivityRequest, ValidatorActivityRequest), of
// UpdateWebhookRequest and of their metadata.
const (
	fieldEventType          = "eventType"
	fieldURL                = "url"
	fieldName               = "name"
	fieldDescription        = "description"
	fieldChainID            = "chainId"
	fieldNetwork            = "network"
	fieldMetadata           = "metadata"
	fieldIncludeInternalTxs = "includeInternalTxs"
	fieldIncludeLogs        = "includeLogs"
	fieldStatus             = "status"

	fieldEventSignatures                = "eventSignatures"
	fieldAddresses                      = "addresses"
	fieldKeyType                        = "keyType"
	fieldKeys                           = "keys"
	fieldSubEvents                      = "subEvents"
	fieldBalanceThresholdFilter         = "balanceThresholdFilter"
	fieldNodeIDs                        = "nodeIds"
	fieldSubnetIDs                      = "subnetIds"
	fieldL1ValidatorFeeBalanceThreshold = "l1ValidatorFeeBalanceThreshold"
	fieldAddressActivitySubEvents       = "addressActivitySubEvents"
	fieldValidatorActivitySubEvents     = "validatorActivitySubEvents"
	fieldBalanceType                    = "balanceType"
	fieldBalanceThreshold               = "balanceThreshold"
)

// whereMetadata prefixes the metadata's members in messages.
const whereMetadata = fieldMetadata + "."

// requestFields are the members each event type's request model has.
func requestFields(t webhookdata.EventType) []string {
	common := []string{fieldEventType, fieldURL, fieldName, fieldDescription, fieldMetadata}
	switch t {
	case webhookdata.AddressActivity:
		return append(common, fieldChainID, fieldIncludeInternalTxs, fieldIncludeLogs)
	case webhookdata.PrimaryNetworkAddressActivity:
		return append(common, fieldNetwork, fieldChainID)
	default:
		return append(common, fieldNetwork)
	}
}

// eventTypes lists the event types for messages.
func eventTypes() []string {
	return []string{string(webhookdata.AddressActivity), string(webhookdata.PrimaryNetworkAddressActivity),
		string(webhookdata.ValidatorActivity)}
}

// parseCreateWebhookRequest reads a create request strictly into a
// webhook record (without its ID, status, time and first height): first
// the members every kind has, then the kind's own.
func (s *server) parseCreateWebhookRequest(r *http.Request) (webhookdata.Webhook, error) {
	var h webhookdata.Webhook
	all := requestFields(webhookdata.AddressActivity)
	all = append(all, fieldNetwork)
	fields, err := api.ReadJSONObject(r, maxBodyBytes, all)
	if err != nil {
		return h, err
	}
	return s.parseCreateWebhookFields(fields)
}

// parseCreateWebhookFields checks a create request's members (the body's,
// or an imported record's: replicas.go) and reads them into a record.
func (s *server) parseCreateWebhookFields(fields map[string]json.RawMessage) (webhookdata.Webhook, error) {
	var h webhookdata.Webhook
	kind, err := api.StringFieldAt(fields, "", fieldEventType)
	if err != nil {
		return h, err
	}
	h.EventType = webhookdata.EventType(kind)
	switch {
	case kind == "":
		return h, api.BadRequest("%s is required: one of %s", fieldEventType, api.QuoteList(eventTypes()))
	case !h.EventType.Valid():
		return h, api.BadRequest("invalid %s '%s': must be one of %s", fieldEventType, api.Truncate(kind), api.QuoteList(eventTypes()))
	}
	allowed := requestFields(h.EventType)
	for name := range fields {
		if !slices.Contains(allowed, name) {
			return h, api.BadRequest("unknown field '%s' in a %s request: allowed fields are %s", name, kind, api.QuoteList(allowed))
		}
	}
	if h.URL, err = parseTargetURL(fields, fieldURL, true); err != nil {
		return h, err
	}
	if h.Name, err = textField(fields, fieldName, maxNameChars); err != nil {
		return h, err
	}
	if h.Description, err = textField(fields, fieldDescription, maxDescriptionChars); err != nil {
		return h, err
	}
	switch h.EventType {
	case webhookdata.AddressActivity:
		err = s.parseAddressActivity(fields, &h)
	case webhookdata.PrimaryNetworkAddressActivity:
		err = s.parsePrimaryNetworkAddressActivity(fields, &h)
	default:
		err = s.parseValidatorActivity(fields, &h)
	}
	return h, err
}

// requiredString returns a string member that must be present.
func requiredString(fields map[string]json.RawMessage, where, name, what string) (string, error) {
	v, err := api.StringFieldAt(fields, where, name)
	if err == nil && v == "" {
		err = api.BadRequest("%s is required: %s", where+name, what)
	}
	return v, err
}
