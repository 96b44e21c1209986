package primary

import (
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
)

// GET /v1/avax/supply (getAvaxSupply): the AVAX supply as the index of
// the three primary chains derives it (store.PrimaryReader.AvaxSupply),
// amounts in AVAX as decimal strings, exact:
//
//   - genesisUnlock: the supply the P-chain genesis starts from;
//   - totalRewards: the staking rewards minted since (platformvm's current
//     supply less the genesis supply);
//   - totalPBurned, totalXBurned, totalCBurned: what each chain's txs
//     burned (inputs less outputs; the C-chain's EVM fees too), the
//     P-chain's including the L1 validator fees, which l1ValidatorFees
//     shows alone;
//   - totalSupply: the current supply less everything burned, and
//     circulatingSupply the same (as the hosted API's figures are);
//   - totalStaked: the current primary-network validators' and delegators'
//     stake, read from the node;
//   - totalLocked: the AVAX in unspent UTXOs still under a time lock (an
//     owners' locktime or a stakeable lock, staked or not) now;
//   - lastUpdated: the newest of the chains' last indexed block times.
//
// A figure the index cannot derive (a chain not indexed from its genesis,
// an X-chain with a pre-Cortina DAG, whose txs are not totalled) is left
// out with every figure made from it, never guessed.

// avaxSupplyResponse is the OpenAPI's AvaxSupplyResponse.
type avaxSupplyResponse struct {
	CirculatingSupply string `json:"circulatingSupply,omitempty"`
	TotalSupply       string `json:"totalSupply,omitempty"`
	TotalPBurned      string `json:"totalPBurned,omitempty"`
	TotalCBurned      string `json:"totalCBurned,omitempty"`
	TotalXBurned      string `json:"totalXBurned,omitempty"`
	TotalStaked       string `json:"totalStaked,omitempty"`
	TotalLocked       string `json:"totalLocked,omitempty"`
	TotalRewards      string `json:"totalRewards,omitempty"`
	LastUpdated       string `json:"lastUpdated,omitempty"`
	GenesisUnlock     string `json:"genesisUnlock,omitempty"`
	L1ValidatorFees   string `json:"l1ValidatorFees,omitempty"`
}

// weiDecimals are the decimals of wei, the C-chain's AVAX unit; the P- and
// X-chain's nAVAX are 10^9 wei.
const weiDecimals = 18

func (s *server) serveGetAvaxSupply(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	for _, chain := range []netinfo.Chain{netinfo.P, netinfo.X, netinfo.C} {
		s.ReadsChain(heights, chain)
	}
	sup, err := s.reader.AvaxSupply(r.Context(), s.Now().Unix())
	if err != nil {
		return fmt.Errorf("reading the AVAX supply: %w", err)
	}
	var out avaxSupplyResponse
	wei := func(nAVAX *uint64) *big.Int {
		if nAVAX == nil {
			return nil
		}
		return new(big.Int).Mul(new(big.Int).SetUint64(*nAVAX), big.NewInt(1_000_000_000))
	}
	sum := func(xs ...*big.Int) *big.Int {
		total := new(big.Int)
		for _, x := range xs {
			if x == nil {
				return nil
			}
			total.Add(total, x)
		}
		return total
	}
	current, initial := wei(sup.CurrentSupply), wei(sup.InitialSupply)
	l1Fees := wei(sup.L1ValidatorFees)
	pBurned := sum(wei(sup.PTxFees), l1Fees)
	xBurned := wei(sup.XBurned)
	var cBurned *big.Int
	if sup.CEVMBurned != nil {
		cBurned = sum(wei(sup.CAtomicBurned), sup.CEVMBurned)
	}
	out.GenesisUnlock = avaxAmount(initial)
	out.L1ValidatorFees = avaxAmount(l1Fees)
	out.TotalPBurned = avaxAmount(pBurned)
	out.TotalXBurned = avaxAmount(xBurned)
	out.TotalCBurned = avaxAmount(cBurned)
	out.TotalLocked = avaxAmount(wei(sup.Locked))
	if current != nil && initial != nil {
		out.TotalRewards = avaxAmount(new(big.Int).Sub(current, initial))
	}
	if burned := sum(pBurned, xBurned, cBurned); current != nil && burned != nil {
		out.TotalSupply = avaxAmount(new(big.Int).Sub(current, burned))
		out.CirculatingSupply = out.TotalSupply
	}
	if staked, err := s.totalStake.get(r.Context(), s); err != nil {
		s.Log().Debug("reading the total stake; answering without totalStaked", zap.Error(err))
	} else {
		out.TotalStaked = avaxAmount(wei(&staked))
	}
	if sup.LastBlockTime > 0 {
		out.LastUpdated = time.Unix(sup.LastBlockTime, 0).UTC().Format("2006-01-02T15:04:05.000Z")
	}
	api.WriteJSON(w, http.StatusOK, out)
	return nil
}

// avaxAmount renders wei as AVAX, exactly, without trailing zeros ("" for
// nil: the figure is left out).
func avaxAmount(wei *big.Int) string {
	if wei == nil {
		return ""
	}
	s := new(big.Rat).SetFrac(wei, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(weiDecimals)), nil)).FloatString(weiDecimals)
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}
