package primary

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
)

// GET /v1/networks/{network}/blockchains/{blockchainId}/lastActivityTimestampByAddresses
// (getLastActivityTimestampByAddresses): the newest tx of the chain that
// involves any of the addresses (creates or consumes a UTXO of theirs, or
// names them as signer or rewards owner), its block's time and height, and
// one UTXO of theirs it touched: one it created (isConsumed false) if any,
// else one it consumed. Addresses are required here (without them there is
// no activity to tell); addresses without any activity on the chain are a
// 404.

// lastActivityRequest is the validated input of the last-activity
// operations (GET and the POST V2).
type lastActivityRequest struct {
	Chain      netinfo.Chain
	AddressIDs []ids.ShortID
}

func (s *server) parseGetLastActivityTimestampByAddressesRequest(r *http.Request, heights *api.Heights) (lastActivityRequest, error) {
	return s.parseLastActivity(r, heights, queryAddresses(r), api.MaxListEntries)
}

// parseLastActivity reads the chain and the addresses, at most maxAddresses
// of them.
func (s *server) parseLastActivity(r *http.Request, heights *api.Heights, source addressSource, maxAddresses int) (lastActivityRequest, error) {
	var req lastActivityRequest
	var err error
	if req.Chain, err = s.resolveChain(r, heights, allPrimaryChains()); err != nil {
		return req, err
	}
	addrs, err := source()
	if err != nil {
		return req, err
	}
	if _, req.AddressIDs, err = s.parsePrimaryAddressList(addrs, api.ParamAddresses, maxAddresses, req.Chain == netinfo.C); err != nil {
		return req, err
	}
	if len(req.AddressIDs) == 0 {
		return req, api.BadRequest("%s is required: a comma-separated list of X/P-chain addresses", api.ParamAddresses)
	}
	return req, nil
}

func (s *server) serveGetLastActivityTimestampByAddresses(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseGetLastActivityTimestampByAddressesRequest(r, heights)
	if err != nil {
		return err
	}
	return s.writeLastActivity(w, r, req)
}

func (s *server) writeLastActivity(w http.ResponseWriter, r *http.Request, req lastActivityRequest) error {
	act, found, err := s.reader.LastActivity(r.Context(), req.Chain, req.AddressIDs)
	if err != nil {
		return fmt.Errorf("reading the last %s activity of %d addresses: %w", req.Chain, len(req.AddressIDs), err)
	}
	if !found {
		return api.NotFound("no activity of the given addresses on the %s", req.Chain.DataAPIAlias())
	}
	info := newPrimaryChainInfo(r, req.Chain)
	api.WriteJSON(w, http.StatusOK, lastActivityTimestamp{
		Timestamp:   act.Time,
		BlockNumber: api.FormatUint(act.Height),
		TxHash:      act.TxID.String(),
		UTXOID:      act.UTXO.String(),
		IsConsumed:  act.Consumed,
		ChainName:   info.ChainName,
		Network:     primaryNetworkType(info.Network),
	})
	return nil
}

// primaryNetworkType names the network in the OpenAPI's PrimaryNetworkType
// (mainnet or fuji): "testnet", the hosted API's other name for fuji,
// becomes fuji; another network keeps the name the request used.
func primaryNetworkType(network string) string {
	if strings.EqualFold(network, "testnet") {
		return "fuji"
	}
	return network
}
