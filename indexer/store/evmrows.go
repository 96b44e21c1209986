package store

import (
	"fmt"
	"math/big"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/indexer/evmdata"
)

// Row encodings of the EVM keyspaces (keys.go). Each row starts with a
// version byte so a later field can be added without a rebuild.

const rowVersion1 byte = 1

// encodeEVMBlock stores a block's header summary and what the writer
// derives from its txs: the fees they paid and the chain's cumulative tx
// count (carried from the previous block's row, evmblocks.go).
func encodeEVMBlock(b *evmdata.Block, derived blockDerived) []byte {
	row := evmBlockRow{
		BlockRef:       evmdata.BlockRef{Number: b.Number, Hash: b.Hash, Timestamp: b.Timestamp, BaseFee: b.BaseFee},
		ParentHash:     b.ParentHash,
		GasUsed:        b.GasUsed,
		GasLimit:       b.GasLimit,
		Miner:          b.Miner,
		Size:           b.Size,
		TxCount:        uint64(len(b.Txs)),
		Traced:         b.Traced,
		BlockGasCost:   b.BlockGasCost,
		TimestampMs:    b.TimestampMs,
		MinDelayExcess: b.MinDelayExcess,
		blockDerived:   derived,
	}
	return encodeEVMBlockRow(&row)
}

// encodeEVMBlockRow encodes a block row (decodeEVMBlock's inverse): the
// writer's rows and a re-derive's rewritten ones.
func encodeEVMBlockRow(b *evmBlockRow) []byte {
	w := rowWriter{buf: make([]byte, 0, 200)}
	w.byte(rowVersion1)
	w.hash(b.Hash)
	w.hash(b.ParentHash)
	w.uint(b.Timestamp)
	w.big(b.BaseFee)
	w.uint(b.GasUsed)
	w.uint(b.GasLimit)
	w.address(b.Miner)
	w.uint(b.Size)
	w.uint(b.TxCount)
	w.bool(b.Traced)
	w.big(b.BlockGasCost)
	writeOptUint(&w, b.TimestampMs)
	writeOptUint(&w, b.MinDelayExcess)
	w.big(b.FeesSpent)
	w.uint(b.CumulativeTxs)
	return w.buf
}

// blockDerived is what a block row holds beyond the block's own fields.
type blockDerived struct {
	FeesSpent     *big.Int
	CumulativeTxs uint64
}

// evmBlockRow is the stored part of a block.
type evmBlockRow struct {
	evmdata.BlockRef
	ParentHash     common.Hash
	GasUsed        uint64
	GasLimit       uint64
	Miner          common.Address
	Size           uint64
	TxCount        uint64
	Traced         bool
	BlockGasCost   *big.Int
	TimestampMs    *uint64
	MinDelayExcess *uint64
	blockDerived
}

func decodeEVMBlock(number uint64, v []byte) (evmBlockRow, error) {
	r := rowReader{buf: v}
	if ver := r.byte(); ver != rowVersion1 {
		return evmBlockRow{}, fmt.Errorf("EVM block row version %d", ver)
	}
	b := evmBlockRow{BlockRef: evmdata.BlockRef{Number: number}}
	b.Hash = r.hash()
	b.ParentHash = r.hash()
	b.Timestamp = r.uint()
	b.BaseFee = r.big()
	b.GasUsed = r.uint()
	b.GasLimit = r.uint()
	b.Miner = r.address()
	b.Size = r.uint()
	b.TxCount = r.uint()
	b.Traced = r.bool()
	b.BlockGasCost = r.big()
	b.TimestampMs = readOptUint(&r)
	b.MinDelayExcess = readOptUint(&r)
	b.FeesSpent = r.big()
	b.CumulativeTxs = r.uint()
	return b, r.done()
}

func writeOptUint(w *rowWriter, v *uint64) {
	w.bool(v != nil)
	if v != nil {
		w.uint(*v)
	}
}

func readOptUint(r *rowReader) *uint64 {
	if !r.bool() {
		return nil
	}
	v := r.uint()
	return &v
}

// txTransferSpan is where a tx's transfers sit in the etr keyspace: their
// log indexes are contiguous within the block.
type txTransferSpan struct {
	count    uint64
	firstLog uint32
	lastLog  uint32
}

func spanOf(transfers []evmdata.TokenTransfer) txTransferSpan {
	span := txTransferSpan{count: uint64(len(transfers))}
	for i, t := range transfers {
		if i == 0 || t.LogIndex < span.firstLog {
			span.firstLog = t.LogIndex
		}
		span.lastLog = max(span.lastLog, t.LogIndex)
	}
	return span
}

func encodeEVMTx(t *evmdata.Tx) []byte {
	w := rowWriter{buf: make([]byte, 0, 200+len(t.Input))}
	w.byte(rowVersion1)
	w.hash(t.Hash)
	w.byte(t.Type)
	w.address(t.From)
	w.optAddress(t.To)
	w.uint(t.Nonce)
	w.big(t.Value)
	w.uint(t.Gas)
	w.big(t.GasPrice)
	w.big(t.MaxFeePerGas)
	w.big(t.MaxPriorityFeePerGas)
	w.bytes(t.Input)
	w.byte(t.Status)
	w.uint(t.GasUsed)
	w.big(t.EffectiveGasPrice)
	w.optAddress(t.ContractAddress)
	span := spanOf(t.Transfers)
	w.uint(span.count)
	w.uint(uint64(span.firstLog))
	w.uint(uint64(span.lastLog))
	w.uint(uint64(len(t.Internal)))
	return w.buf
}

// evmTxRow is a stored transaction; its transfers and internal txs are rows
// of their own, found through span and internal.
type evmTxRow struct {
	evmdata.Tx
	span     txTransferSpan
	internal uint64
}

func decodeEVMTx(index uint32, v []byte) (evmTxRow, error) {
	r := rowReader{buf: v}
	if ver := r.byte(); ver != rowVersion1 {
		return evmTxRow{}, fmt.Errorf("EVM tx row version %d", ver)
	}
	var t evmTxRow
	t.Index = index
	t.Hash = r.hash()
	t.Type = r.byte()
	t.From = r.address()
	t.To = r.optAddress()
	t.Nonce = r.uint()
	t.Value = r.big()
	t.Gas = r.uint()
	t.GasPrice = r.big()
	t.MaxFeePerGas = r.big()
	t.MaxPriorityFeePerGas = r.big()
	t.Input = r.bytes()
	t.Status = r.byte()
	t.GasUsed = r.uint()
	t.EffectiveGasPrice = r.big()
	t.ContractAddress = r.optAddress()
	t.span.count = r.uint()
	t.span.firstLog = uint32(r.uint())
	t.span.lastLog = uint32(r.uint())
	t.internal = r.uint()
	return t, r.done()
}

// A transfer row carries its tx's index and hash, so a token's transfers list
// without reading the (possibly large) tx rows.
func encodeTransfer(txIndex uint32, txHash common.Hash, t *evmdata.TokenTransfer) []byte {
	w := rowWriter{buf: make([]byte, 0, 170)}
	w.byte(rowVersion1)
	w.uint(uint64(txIndex))
	w.hash(txHash)
	w.address(t.Token)
	w.byte(byte(t.Kind))
	w.address(t.Operator)
	w.address(t.From)
	w.address(t.To)
	w.big(t.TokenID)
	w.big(t.Value)
	return w.buf
}

func decodeTransfer(logIndex uint32, batch uint16, v []byte) (evmdata.IndexedTransfer, error) {
	r := rowReader{buf: v}
	if ver := r.byte(); ver != rowVersion1 {
		return evmdata.IndexedTransfer{}, fmt.Errorf("transfer row version %d", ver)
	}
	var it evmdata.IndexedTransfer
	it.TxIndex = uint32(r.uint())
	it.TxHash = r.hash()
	t := &it.TokenTransfer
	t.LogIndex, t.BatchIndex = logIndex, batch
	t.Token = r.address()
	t.Kind = evmdata.ErcType(r.byte())
	t.Operator = r.address()
	t.From = r.address()
	t.To = r.address()
	t.TokenID = r.big()
	t.Value = r.big()
	return it, r.done()
}

func encodeInternal(t *evmdata.InternalTx) []byte {
	w := rowWriter{buf: make([]byte, 0, 80)}
	w.byte(rowVersion1)
	w.byte(byte(t.Type))
	w.address(t.From)
	w.address(t.To)
	w.big(t.Value)
	w.uint(t.Gas)
	w.uint(t.GasUsed)
	w.bool(t.Reverted)
	return w.buf
}

func decodeInternal(frame uint32, v []byte) (evmdata.InternalTx, error) {
	r := rowReader{buf: v}
	if ver := r.byte(); ver != rowVersion1 {
		return evmdata.InternalTx{}, fmt.Errorf("internal tx row version %d", ver)
	}
	t := evmdata.InternalTx{Index: frame}
	t.Type = evmdata.CallType(r.byte())
	t.From = r.address()
	t.To = r.address()
	t.Value = r.big()
	t.Gas = r.uint()
	t.GasUsed = r.uint()
	t.Reverted = r.bool()
	return t, r.done()
}

func encodeDeployment(d *evmdata.Deployment) []byte {
	w := rowWriter{buf: make([]byte, 0, 100)}
	w.byte(rowVersion1)
	w.hash(d.TxHash)
	w.uint(d.TxPos.Block)
	w.uint(uint64(d.TxPos.Index))
	w.address(d.Deployer)
	w.address(d.DeployerContract)
	w.bool(d.Factory)
	return w.buf
}

func decodeDeployment(contract common.Address, v []byte) (evmdata.Deployment, error) {
	r := rowReader{buf: v}
	if ver := r.byte(); ver != rowVersion1 {
		return evmdata.Deployment{}, fmt.Errorf("deployment row version %d", ver)
	}
	var d evmdata.Deployment
	d.Address = contract
	d.TxHash = r.hash()
	d.TxPos.Block = r.uint()
	d.TxPos.Index = uint32(r.uint())
	d.Deployer = r.address()
	d.DeployerContract = r.address()
	d.Factory = r.bool()
	return d, r.done()
}

// encodeContract stores the part of evmdata.Contract a contract row holds
// (the deployment has its own row).
func encodeContract(c *evmdata.Contract) []byte {
	w := rowWriter{buf: make([]byte, 0, 64)}
	w.byte(rowVersion1)
	w.byte(byte(c.Kind))
	w.bool(c.MetadataRead)
	w.string(c.Name)
	w.string(c.Symbol)
	w.bool(c.HasDecimal)
	w.byte(c.Decimals)
	return w.buf
}

func decodeContract(addr common.Address, v []byte) (evmdata.Contract, error) {
	r := rowReader{buf: v}
	if ver := r.byte(); ver != rowVersion1 {
		return evmdata.Contract{}, fmt.Errorf("contract row version %d", ver)
	}
	c := evmdata.Contract{Address: addr}
	c.Kind = evmdata.ErcType(r.byte())
	c.MetadataRead = r.bool()
	c.Name = r.string()
	c.Symbol = r.string()
	c.HasDecimal = r.bool()
	c.Decimals = r.byte()
	return c, r.done()
}

// bigBytes and bigFrom store balances and supplies as plain big-endian bytes.
func bigBytes(v *big.Int) []byte { return v.Bytes() }

func bigFrom(b []byte) *big.Int { return new(big.Int).SetBytes(b) }
