package store

// BlockSummary is what the store keeps of every accepted block of a followed
// chain: enough for per-block metrics, extended by later capabilities.
type BlockSummary struct {
	Height    uint64 `json:"height"`
	ID        string `json:"id"`        // block ID as the node reports it (cb58 or 0x hex for the C-chain)
	Timestamp int64  `json:"timestamp"` // block time, Unix seconds
	TxCount   uint32 `json:"txCount"`
}

// TPSBucket is the transaction count of one chain over one UTC day.
type TPSBucket struct {
	Start        int64  // Unix seconds of the bucket start (UTC midnight)
	TxCount      uint64 // transactions in blocks whose timestamp falls in the bucket
	BlockCount   uint64 // blocks whose timestamp falls in the bucket
	LastBlockTs  int64  // timestamp of the newest block counted in the bucket
	FirstBlockTs int64  // timestamp of the oldest block counted in the bucket
}

// BucketSeconds is the width of a TPS bucket.
const BucketSeconds = 86400
