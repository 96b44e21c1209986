package primary

import (
	"net/http"
	"net/url"

	"github.com/avadata/avadata/handlers/api"
)

// POST /v1/networks/{network}/blockchains/{blockchainId}/utxos
// (getUtxosByAddressesV2): getUtxosByAddresses with the addresses in the
// JSON body (PrimaryNetworkAddressesBodyDto: {"addresses": "a,b,..."},
// required), up to maxUTXOAddressesV2 of them, and pages of up to
// maxUTXOPageSizeV2. The other parameters stay in the query. A page token
// resumes the listing of the same addresses only.

// maxAddressesBodyBytes bounds the body of the V2 address operations: room
// for maxUTXOAddressesV2 addresses with chain prefixes and spaces.
const maxAddressesBodyBytes = 64 << 10

func (s *server) parseGetUtxosByAddressesV2Request(r *http.Request, heights *api.Heights) (getUtxosByAddressesRequest, error) {
	listing := utxoListing{route: routeGetUtxosByAddressesV2, maxAddresses: maxUTXOAddressesV2, maxPageSize: maxUTXOPageSizeV2}
	return s.parseUTXOListing(r, heights, listing, bodyAddresses(r))
}

// bodyAddresses reads a PrimaryNetworkAddressesBodyDto: its required
// comma-separated addresses, as a query's addresses parameter would hold
// them.
func bodyAddresses(r *http.Request) addressSource {
	return func() (url.Values, error) { return readAddressesBody(r) }
}

func readAddressesBody(r *http.Request) (url.Values, error) {
	fields, err := api.ReadJSONObject(r, maxAddressesBodyBytes, []string{api.ParamAddresses})
	if err != nil {
		return nil, err
	}
	list, err := api.StringField(fields, api.ParamAddresses)
	if err != nil {
		return nil, err
	}
	if list == "" {
		return nil, api.BadRequest("%s is required in the JSON body: a comma-separated list of X/P-chain addresses, "+
			`e.g. {"%s": "avax1...,avax1..."}`, api.ParamAddresses, api.ParamAddresses)
	}
	return url.Values{api.ParamAddresses: {list}}, nil
}

func (s *server) serveGetUtxosByAddressesV2(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseGetUtxosByAddressesV2Request(r, heights)
	if err != nil {
		return err
	}
	return s.writeUTXOPage(w, r, &req)
}
