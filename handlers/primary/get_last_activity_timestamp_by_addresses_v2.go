package primary

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// POST /v1/networks/{network}/blockchains/{blockchainId}/lastActivityTimestampByAddresses
// (getLastActivityTimestampByAddressesV2): getLastActivityTimestampByAddresses
// with the addresses in the JSON body (PrimaryNetworkAddressesBodyDto,
// required), up to maxUTXOAddressesV2 of them.

func (s *server) parseGetLastActivityTimestampByAddressesV2Request(r *http.Request, heights *api.Heights) (lastActivityRequest, error) {
	return s.parseLastActivity(r, heights, bodyAddresses(r), maxUTXOAddressesV2)
}

func (s *server) serveGetLastActivityTimestampByAddressesV2(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseGetLastActivityTimestampByAddressesV2Request(r, heights)
	if err != nil {
		return err
	}
	return s.writeLastActivity(w, r, req)
}
