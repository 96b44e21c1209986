package webhooks

import (
	"github.com/avadata/avadata/indexer/webhookdata"
)

// webhookResponse is the SDK's WebhookResponse union: one of
// EVMAddressActivityResponse, PrimaryNetworkAddressActivityResponse and
// ValidatorActivityResponse, told apart by eventType. The SDK fails a
// reply with null for an optional member, or without name, description
// or chainId, so optional members are omitted when absent and the others
// are always there. statusReason is avadata's: why an inactive webhook
// stopped (the SDK drops members it does not know).
type webhookResponse struct {
	ID                 string `json:"id"`
	EventType          string `json:"eventType"`
	ChainID            string `json:"chainId"`
	Metadata           any    `json:"metadata"`
	IncludeInternalTxs *bool  `json:"includeInternalTxs,omitempty"`
	IncludeLogs        *bool  `json:"includeLogs,omitempty"`
	URL                string `json:"url"`
	Status             string `json:"status"`
	StatusReason       string `json:"statusReason,omitempty"`
	CreatedAt          int64  `json:"createdAt"`
	Name               string `json:"name"`
	Description        string `json:"description"`
}

// addressActivityMetadata is the SDK's AddressActivityMetadata.
type addressActivityMetadata struct {
	EventSignatures []string `json:"eventSignatures,omitempty"`
	Addresses       []string `json:"addresses"`
}

// primaryNetworkAddressActivityMetadata is the SDK's
// PrimaryNetworkAddressActivityMetadata.
type primaryNetworkAddressActivityMetadata struct {
	EventSignatures        []string                            `json:"eventSignatures,omitempty"`
	KeyType                string                              `json:"keyType"`
	Keys                   []string                            `json:"keys"`
	SubEvents              primaryNetworkSubEventsReply        `json:"subEvents"`
	BalanceThresholdFilter *webhookdata.BalanceThresholdFilter `json:"balanceThresholdFilter,omitempty"`
}

type primaryNetworkSubEventsReply struct {
	AddressActivitySubEvents []string `json:"addressActivitySubEvents"`
}

// validatorActivityMetadata is the SDK's ValidatorActivityMetadata.
type validatorActivityMetadata struct {
	EventSignatures                []string                `json:"eventSignatures,omitempty"`
	KeyType                        string                  `json:"keyType"`
	Keys                           []string                `json:"keys"`
	SubEvents                      validatorSubEventsReply `json:"subEvents"`
	NodeIDs                        []string                `json:"nodeIds,omitempty"`
	SubnetIDs                      []string                `json:"subnetIds,omitempty"`
	L1ValidatorFeeBalanceThreshold string                  `json:"l1ValidatorFeeBalanceThreshold,omitempty"`
}

type validatorSubEventsReply struct {
	ValidatorActivitySubEvents []string `json:"validatorActivitySubEvents"`
}

// listWebhooksResponse is the SDK's ListWebhooksResponse.
type listWebhooksResponse struct {
	NextPageToken string            `json:"nextPageToken,omitempty"`
	Webhooks      []webhookResponse `json:"webhooks"`
}

// listWebhookAddressesResponse is the SDK's ListWebhookAddressesResponse.
type listWebhookAddressesResponse struct {
	NextPageToken  string   `json:"nextPageToken,omitempty"`
	Addresses      []string `json:"addresses"`
	TotalAddresses int      `json:"totalAddresses"`
}

// sharedSecretsResponse is the SDK's SharedSecretsResponse.
type sharedSecretsResponse struct {
	Secret string `json:"secret"`
}

// webhookReply shapes a stored webhook as its event type's response.
func webhookReply(h webhookdata.Webhook) webhookResponse {
	out := webhookResponse{
		ID: h.ID.String(), EventType: string(h.EventType), ChainID: h.ChainID, URL: h.URL, Status: string(h.Status),
		StatusReason: h.StatusReason, CreatedAt: h.CreatedAtMs, Name: h.Name, Description: h.Description,
	}
	m := h.Metadata
	switch h.EventType {
	case webhookdata.AddressActivity:
		logs, internal := h.IncludeLogs, h.IncludeInternalTxs
		out.IncludeLogs, out.IncludeInternalTxs = &logs, &internal
		out.Metadata = addressActivityMetadata{EventSignatures: m.EventSignatures, Addresses: nonNil(m.Addresses)}
	case webhookdata.PrimaryNetworkAddressActivity:
		out.Metadata = primaryNetworkAddressActivityMetadata{EventSignatures: m.EventSignatures, KeyType: m.KeyType,
			Keys: nonNil(m.Keys), SubEvents: primaryNetworkSubEventsReply{AddressActivitySubEvents: nonNil(m.AddressActivitySubEvents)},
			BalanceThresholdFilter: m.BalanceThresholdFilter}
	default:
		out.Metadata = validatorActivityMetadata{EventSignatures: m.EventSignatures, KeyType: m.KeyType, Keys: nonNil(m.Keys),
			SubEvents: validatorSubEventsReply{ValidatorActivitySubEvents: nonNil(m.ValidatorActivitySubEvents)},
			NodeIDs:   m.NodeIDs, SubnetIDs: m.SubnetIDs, L1ValidatorFeeBalanceThreshold: m.L1ValidatorFeeBalanceThreshold}
	}
	return out
}

// nonNil makes an absent list an empty one: the SDK requires the member.
func nonNil(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}
