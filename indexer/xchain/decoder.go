// Package xchain reads the X-chain: its accepted (post-Cortina, linear)
// blocks and the vertices of its pre-Cortina DAG from the node's indexes,
// its genesis, and the txs of all three into the pdata domain model.
package xchain

import (
	"fmt"

	"github.com/ava-labs/avalanchego/vms/avm/block"
	"github.com/ava-labs/avalanchego/vms/avm/fxs"
	"github.com/ava-labs/avalanchego/vms/avm/txs"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/nftfx"
	"github.com/ava-labs/avalanchego/vms/propertyfx"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"

	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/txsig"
)

// Tx type names (the Data API's XChainTransactionType).
const (
	TypeBaseTx        = "BaseTx"
	TypeCreateAssetTx = "CreateAssetTx"
	TypeOperationTx   = "OperationTx"
	TypeImportTx      = "ImportTx"
	TypeExportTx      = "ExportTx"
)

// Asset types (the Data API's PrimaryNetworkAssetType).
const (
	AssetSECP = "secp256k1"
	AssetNFT  = "nft"
)

// fxNFT is the nftfx's index on the X-chain: the parser's fx order
// (secp256k1, nft, property) fixes it.
const fxNFT = 1

// NewParser returns the X-chain block parser. The fx order fixes the fx
// indices and must match the X-chain's (secp256k1, nft, property).
func NewParser() (block.Parser, error) {
	return block.NewParser([]fxs.Fx{&secp256k1fx.Fx{}, &nftfx.Fx{}, &propertyfx.Fx{}})
}

// Decoder decodes X-chain blocks and txs. It is safe for concurrent use:
// the parser it holds is read-only once built.
type Decoder struct {
	parser block.Parser
}

// NewDecoder builds the X-chain parser once for all decoding.
func NewDecoder() (*Decoder, error) {
	parser, err := NewParser()
	if err != nil {
		return nil, fmt.Errorf("creating X-chain parser: %w", err)
	}
	return &Decoder{parser: parser}, nil
}

// DecodeTx decodes a signed avm tx into the domain tx, with every UTXO it
// consumes and produces.
func (d *Decoder) DecodeTx(b []byte) (*pdata.Tx, error) {
	// The genesis codec registers the same types as the block codec and
	// only lifts the size limit, so it reads every accepted tx, the genesis
	// txs (which the block codec may find too large) included.
	tx, err := d.parser.ParseGenesisTx(b)
	if err != nil {
		return nil, fmt.Errorf("parsing avm tx: %w", err)
	}
	return d.fromTx(tx)
}

// fromTx turns a parsed (initialized) avm tx into the domain tx.
func (d *Decoder) fromTx(tx *txs.Tx) (*pdata.Tx, error) {
	v := &txVisitor{
		d:    d,
		tx:   tx,
		sigs: txsig.New(tx.Unsigned.Bytes()),
		out:  &pdata.Tx{ID: tx.ID(), Bytes: tx.Bytes()},
	}
	if err := tx.Unsigned.Visit(v); err != nil {
		return nil, fmt.Errorf("avm tx %s: %w", tx.ID(), err)
	}
	return v.out, nil
}

// txVisitor fills the domain tx from the avm tx's concrete type. The avm
// checks credentials in input order: the BaseTx's Ins, then the ops (one
// credential per op) or the imported inputs; credIx follows that order.
type txVisitor struct {
	d      *Decoder
	tx     *txs.Tx
	sigs   *txsig.Recovery
	out    *pdata.Tx
	credIx int
}

var _ txs.Visitor = (*txVisitor)(nil)

func (v *txVisitor) BaseTx(tx *txs.BaseTx) error {
	v.out.Type = TypeBaseTx
	return v.base(tx)
}

func (v *txVisitor) CreateAssetTx(tx *txs.CreateAssetTx) error {
	v.out.Type = TypeCreateAssetTx
	v.out.Asset = &pdata.Asset{
		ID:           v.tx.ID(),
		Name:         tx.Name,
		Symbol:       tx.Symbol,
		Denomination: tx.Denomination,
		Type:         assetType(tx.States),
	}
	return v.base(&tx.BaseTx)
}

func (v *txVisitor) OperationTx(tx *txs.OperationTx) error {
	v.out.Type = TypeOperationTx
	if err := v.base(&tx.BaseTx); err != nil {
		return err
	}
	for _, op := range tx.Ops {
		cred := v.nextCred()
		for _, id := range op.UTXOIDs {
			v.out.Consumed = append(v.out.Consumed, pdata.Input{
				UTXOID:      id.InputID(),
				TxID:        id.TxID,
				OutputIndex: id.OutputIndex,
				Asset:       op.AssetID(),
				Signers:     cred, // the op's UTXOs share it
			})
		}
	}
	return nil
}

func (v *txVisitor) ImportTx(tx *txs.ImportTx) error {
	v.out.Type = TypeImportTx
	v.out.SourceChain = tx.SourceChain
	if err := v.base(&tx.BaseTx); err != nil {
		return err
	}
	v.consume(tx.ImportedIns)
	return nil
}

func (v *txVisitor) ExportTx(tx *txs.ExportTx) error {
	v.out.Type = TypeExportTx
	v.out.DestinationChain = tx.DestinationChain
	if err := v.base(&tx.BaseTx); err != nil {
		return err
	}
	// Exported outputs follow the tx's own outputs
	// (vms/avm/txs/executor.Executor.ExportTx).
	for i, out := range tx.ExportedOuts {
		u, err := NewUTXO(v.d.parser.Codec(), &avax.UTXO{
			UTXOID: avax.UTXOID{TxID: v.tx.ID(), OutputIndex: uint32(len(tx.Outs) + i)},
			Asset:  out.Asset,
			Out:    out.Out,
		})
		if err != nil {
			return err
		}
		u.Exported, u.DestinationChain = true, tx.DestinationChain
		v.out.Produced = append(v.out.Produced, u)
	}
	return nil
}

// base fills what every avm tx has: memo, inputs, and the UTXOs the tx
// keeps on the X-chain. avm's own Tx.UTXOs lists those (outputs, then
// initial states or operation outputs, indexed as the executor adds them);
// exports are not among them.
func (v *txVisitor) base(tx *txs.BaseTx) error {
	v.out.Memo = tx.Memo
	v.consume(tx.Ins)
	for _, u := range v.tx.UTXOs() {
		out, err := NewUTXO(v.d.parser.Codec(), u)
		if err != nil {
			return err
		}
		v.out.Produced = append(v.out.Produced, out)
	}
	return nil
}

// consume adds inputs, each with the next credential's signers.
func (v *txVisitor) consume(ins []*avax.TransferableInput) {
	for _, in := range ins {
		v.out.Consumed = append(v.out.Consumed, pdata.Input{
			UTXOID:      in.InputID(),
			TxID:        in.TxID,
			OutputIndex: in.OutputIndex,
			Asset:       in.AssetID(),
			Amount:      in.In.Amount(),
			Signers:     v.nextCred(),
		})
	}
}

// nextCred returns the signers of the next credential (nil past the last
// one: a genesis tx has none).
func (v *txVisitor) nextCred() *txsig.Signers {
	i := v.credIx
	v.credIx++
	if i >= len(v.tx.Creds) || v.tx.Creds[i] == nil {
		return nil
	}
	return v.sigs.Signers(v.tx.Creds[i].Credential)
}

// assetType is the Data API type of an asset: nft when it has an NFT
// initial state, else secp256k1 (a property-only asset has no Data API
// type of its own).
func assetType(states []*txs.InitialState) string {
	for _, s := range states {
		if s.FxIndex == fxNFT {
			return AssetNFT
		}
	}
	return AssetSECP
}
