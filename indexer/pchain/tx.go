package pchain

import (
	"fmt"
	"reflect"

	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"

	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/txsig"
)

// DecodeTx decodes a signed P-chain tx as accepted. What the tx bytes alone
// cannot tell is left for the block reader: the outcome of a proposal tx,
// the post-Durango staker start (the chain time at acceptance) and the
// effects of a RewardValidatorTx (see Source).
//
// It parses with txs.GenesisCodec: the bytes are accepted txs, and genesis
// CreateChainTxs may exceed txs.Codec's size cap; the format is the same.
func DecodeTx(b []byte) (*pdata.Tx, error) {
	tx, err := txs.Parse(txs.GenesisCodec, b)
	if err != nil {
		return nil, fmt.Errorf("parsing P-chain tx: %w", err)
	}
	return decodeParsed(tx)
}

// decodeParsed decodes a tx already parsed and initialized (a block's or the
// genesis').
func decodeParsed(tx *txs.Tx) (*pdata.Tx, error) {
	d := &txDecoder{
		tx: tx,
		out: &pdata.Tx{
			ID:    tx.ID(),
			Type:  typeName(tx.Unsigned),
			Bytes: tx.Bytes(),
		},
		// Every credential signs the hash of the unsigned bytes.
		signers: txsig.New(tx.Unsigned.Bytes()),
	}
	if err := tx.Unsigned.Visit(d); err != nil {
		return nil, fmt.Errorf("decoding %s %s: %w", d.out.Type, d.out.ID, err)
	}
	// The promotion order of pre-Durango stakers is platformvm's own
	// (state.Staker.Less: start, then this priority, then tx ID).
	if scheduled, ok := tx.Unsigned.(txs.ScheduledStaker); ok && d.out.Staker != nil {
		d.out.Staker.PendingPriority = uint8(scheduled.PendingPriority())
	}
	return d.out, nil
}

// typeName is the Go type name of v (a tx or block type): the Data API
// names txs and blocks after them.
func typeName(v any) string {
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Name()
}

// txDecoder fills a pdata.Tx from one tx; its txs.Visitor methods are in
// tx_visitor.go.
type txDecoder struct {
	tx      *txs.Tx
	out     *pdata.Tx
	signers *txsig.Recovery
	// creds counts the credentials used so far: they align with the tx's
	// inputs in order (Ins, then ImportedInputs); any further ones
	// authorize subnet or validator actions and name no UTXO.
	creds int
}

// base decodes what every tx with a BaseTx has: memo, inputs, and outputs
// at 0..n-1.
func (d *txDecoder) base(b *avax.BaseTx) error {
	if len(b.Memo) > 0 {
		d.out.Memo = b.Memo
	}
	if err := d.consume(b.Ins); err != nil {
		return err
	}
	return d.produce(b.Outs, 0, pdata.UTXO{})
}

// consume adds spent inputs, each with the signers of its credential.
func (d *txDecoder) consume(ins []*avax.TransferableInput) error {
	for _, in := range ins {
		if d.creds >= len(d.tx.Creds) {
			return fmt.Errorf("input %s has no credential (%d credentials)", in.InputID(), len(d.tx.Creds))
		}
		signers := d.signers.Signers(d.tx.Creds[d.creds])
		d.creds++
		d.out.Consumed = append(d.out.Consumed, inputOf(in, signers))
	}
	return nil
}

// produce adds outs as UTXOs at first, first+1, ...; the fields set in
// template (kind, stake period, destination chain) apply to each.
func (d *txDecoder) produce(outs []*avax.TransferableOutput, first int, template pdata.UTXO) error {
	for i, out := range outs {
		u, err := newUTXO(d.out.ID, uint32(first+i), out)
		if err != nil {
			return err
		}
		u.Kind = template.Kind
		u.StakeStart, u.StakeEnd = template.StakeStart, template.StakeEnd
		u.Exported, u.DestinationChain = template.Exported, template.DestinationChain
		d.out.Produced = append(d.out.Produced, u)
	}
	return nil
}

// stake adds a staking tx's stake outputs, at len(Outs)+i, staked for the
// staker's period, and names them in the staker.
func (d *txDecoder) stake(b *avax.BaseTx, stakeOuts []*avax.TransferableOutput, s *pdata.Staker) error {
	first := len(d.out.Produced)
	template := pdata.UTXO{Kind: pdata.KindStake, StakeStart: s.Start, StakeEnd: s.End}
	if err := d.produce(stakeOuts, len(b.Outs), template); err != nil {
		return err
	}
	for _, u := range d.out.Produced[first:] {
		s.Stake = append(s.Stake, u.ID)
	}
	d.out.Staker = s
	return nil
}

// validator is the staker a txs.Validator describes.
func validator(v *txs.Validator) *pdata.Staker {
	return &pdata.Staker{
		NodeID: v.NodeID,
		Start:  int64(v.Start),
		End:    int64(v.End),
		Weight: v.Wght,
	}
}
