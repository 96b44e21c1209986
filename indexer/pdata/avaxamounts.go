package pdata

import "github.com/ava-labs/avalanchego/ids"

// AVAXAmounts sums the AVAX (asset avax, nAVAX) tx consumes, its inputs and
// the EVM debits of a C-chain atomic tx, and what it produces, its outputs
// (exports, stake, rewards and an L1 refund included) and EVM credits.
func (tx *Tx) AVAXAmounts(avax ids.ID) (in, out uint64) {
	for _, c := range tx.Consumed {
		if c.Asset == avax {
			in += c.Amount
		}
	}
	for _, a := range tx.EVMInputs {
		if a.Asset == avax {
			in += a.Amount
		}
	}
	for _, u := range tx.Produced {
		if u.Asset == avax {
			out += u.Amount
		}
	}
	for _, a := range tx.EVMOutputs {
		if a.Asset == avax {
			out += a.Amount
		}
	}
	return in, out
}
