package aggregator

import (
	"context"
	"fmt"
	"strings"

	"github.com/ava-labs/avalanchego/database"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/vms/platformvm"
	"github.com/ava-labs/avalanchego/vms/platformvm/status"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/message"
)

// GET aggregateSignatures/{txHash}: the warp message the P-chain signs for a
// committed L1 transaction, built from the transaction as the P-chain built
// its state from it, then aggregated like a POST with the default quorum at
// the proposed height.

// txQuorumPercentage is the quorum of a GET: the hosted API's default.
const txQuorumPercentage = 67

// txSource reads committed P-chain transactions (the host node's P-chain
// API; a fake in unit tests).
type txSource interface {
	// committedTx returns the transaction, or a KindNotFound *Error when
	// the P-chain has not committed it.
	committedTx(ctx context.Context, txID ids.ID) (*txs.Tx, error)
}

// platformTxSource reads the host node's platform API over loopback, once
// its address is known, and its validator state.
type platformTxSource struct {
	nodeURI func() string
	view    *validatorView
}

func (p platformTxSource) client() (*platformvm.Client, error) {
	uri := p.nodeURI()
	if uri == "" {
		return nil, newError(KindUnavailable, "the signature aggregator has not reached its node's API yet; try again shortly")
	}
	return platformvm.NewClient(uri), nil
}

func (p platformTxSource) committedTx(ctx context.Context, txID ids.ID) (*txs.Tx, error) {
	client, err := p.client()
	if err != nil {
		return nil, err
	}
	st, err := client.GetTxStatus(ctx, txID)
	if err != nil {
		return nil, fmt.Errorf("platform.getTxStatus %s: %w", txID, err)
	}
	if st.Status != status.Committed {
		return nil, newError(KindNotFound,
			"transaction %s is not a committed P-chain transaction (P-chain status: %s); only committed P-chain L1 transactions have a warp message",
			txID, st.Status)
	}
	raw, err := client.GetTx(ctx, txID)
	if err != nil {
		return nil, fmt.Errorf("platform.getTx %s: %w", txID, err)
	}
	tx, err := txs.Parse(txs.Codec, raw)
	if err != nil {
		return nil, fmt.Errorf("parsing P-chain transaction %s: %w", txID, err)
	}
	return tx, nil
}

func (p platformTxSource) l1Validator(ctx context.Context, validationID ids.ID) (l1ValidatorState, bool, error) {
	client, err := p.client()
	if err != nil {
		return l1ValidatorState{}, false, err
	}
	v, _, err := client.GetL1Validator(ctx, validationID)
	// The API reports a missing validator only through its error text:
	// "fetching L1 validator … failed: not found" (service.go).
	if err != nil && strings.Contains(err.Error(), "failed: "+database.ErrNotFound.Error()) {
		return l1ValidatorState{}, false, nil
	}
	if err != nil {
		return l1ValidatorState{}, false, fmt.Errorf("platform.getL1Validator %s: %w", validationID, err)
	}
	return l1ValidatorState{SubnetID: v.SubnetID, Weight: v.Weight, MinNonce: v.MinNonce}, true, nil
}

func (p platformTxSource) subnetOf(ctx context.Context, chainID ids.ID) (ids.ID, error) {
	return p.view.sourceSubnet(ctx, chainID)
}

// AggregateForTx aggregates the warp message the P-chain signs for the
// committed L1 transaction txID.
func (a *Aggregator) AggregateForTx(ctx context.Context, txID ids.ID) (Result, error) {
	tx, err := a.txs.committedTx(ctx, txID)
	if err != nil {
		return Result{}, err
	}
	req, err := txMessage(ctx, a.networkID, a.txs, tx)
	if err != nil {
		return Result{}, err
	}
	return a.AggregateSignatures(ctx, req)
}

// txMessage is the aggregation request for a committed transaction's warp
// message: the message, its justification and its signing subnet.
func txMessage(ctx context.Context, networkID uint32, st pchainState, tx *txs.Tx) (Request, error) {
	switch u := tx.Unsigned.(type) {
	case *txs.ConvertSubnetToL1Tx:
		msg, err := conversionMessage(networkID, u)
		if err != nil {
			return Request{}, fmt.Errorf("building the conversion message of %s: %w", tx.ID(), err)
		}
		// The P-chain finds the conversion by the subnet ID given as
		// justification; the L1's validators are the ones its contracts
		// verify against.
		return Request{
			Message: msg.Bytes(), Justification: u.Subnet[:],
			SigningSubnetID: u.Subnet, HasSigningSubnetID: true,
			QuorumPercentage: txQuorumPercentage,
		}, nil
	case *txs.RegisterL1ValidatorTx:
		return registrationRequest(ctx, networkID, st, tx, u)
	case *txs.SetL1ValidatorWeightTx:
		return weightRequest(ctx, networkID, st, tx, u)
	default:
		return Request{}, newError(KindInvalidRequest,
			"transaction %s is a %s, which has no P-chain L1 warp message (ConvertSubnetToL1Tx, RegisterL1ValidatorTx and SetL1ValidatorWeightTx have)",
			tx.ID(), txTypeName(tx.Unsigned))
	}
}

// conversionMessage is the SubnetToL1Conversion message the P-chain signs
// for a conversion: its ID hashes the data the P-chain stored for it
// (txs/executor/standard_tx_executor.go), sent from the P-chain with an
// empty source address.
func conversionMessage(networkID uint32, tx *txs.ConvertSubnetToL1Tx) (*warp.UnsignedMessage, error) {
	data := message.SubnetToL1ConversionData{
		SubnetID:       tx.Subnet,
		ManagerChainID: tx.ChainID,
		ManagerAddress: tx.Address,
		Validators:     make([]message.SubnetToL1ConversionValidatorData, len(tx.Validators)),
	}
	for i, vdr := range tx.Validators {
		data.Validators[i] = message.SubnetToL1ConversionValidatorData{
			NodeID:       vdr.NodeID,
			BLSPublicKey: vdr.Signer.PublicKey,
			Weight:       vdr.Weight,
		}
	}
	conversionID, err := message.SubnetToL1ConversionID(data)
	if err != nil {
		return nil, err
	}
	conversion, err := message.NewSubnetToL1Conversion(conversionID)
	if err != nil {
		return nil, err
	}
	return pchainMessage(networkID, conversion.Bytes())
}

// txTypeName names a transaction type as the Data API does (its Go type).
func txTypeName(u txs.UnsignedTx) string {
	name := fmt.Sprintf("%T", u)
	return strings.TrimPrefix(name, "*txs.")
}
