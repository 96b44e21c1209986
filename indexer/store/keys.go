package store

import (
	"encoding/binary"

	"github.com/avadata/avadata/indexer/netinfo"
)

// The key layout of avadata's Badger index. Every key starts with a one-byte
// keyspace tag; integers are fixed-width big-endian so that byte order is
// numeric order and range scans work. This file lists every keyspace: a new
// capability adds its tags here, and bumps SchemaVersion when it changes the
// meaning of existing keys.
//
//	tag   key                                  value
//	0x00  meta | name                          meta record (schema version, page-token key)
//	0x01  cursor | chain(1)                    cursor record: next height, last-applied time, last block time
//	0x40  block | chain(1) | height(8)         BlockSummary (JSON)
//	0x89  tps | chain(1) | dayStart(8)         TPSBucket (4 x uint64)
//
// Reserved for the capabilities that come next (see
// shared/reference/indexing.md §6.2): 0x10-0x12 primary-network txs and
// address rows, 0x20-0x23 UTXOs and atomic memory, 0x30-0x35 stakers and
// rewards, 0x41-0x43 blocks by proposer and vertices, 0x80-0x88 EVM data,
// 0xA0-0xAF signature aggregation.
const (
	tagMeta   byte = 0x00
	tagCursor byte = 0x01
	tagBlock  byte = 0x40
	tagTPS    byte = 0x89
)

// SchemaVersion is the layout version written into a new store. Opening a
// store written with another version fails with a message that says how to
// rebuild it.
const SchemaVersion uint32 = 1

var (
	metaSchemaKey   = []byte{tagMeta, 's', 'c', 'h', 'e', 'm', 'a'}
	metaTokenKeyKey = []byte{tagMeta, 't', 'o', 'k', 'e', 'n', 'k', 'e', 'y'}
)

func cursorKey(chain netinfo.Chain) []byte { return []byte{tagCursor, byte(chain)} }

func blockKey(chain netinfo.Chain, height uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{tagBlock, byte(chain)}, height)
}

func tpsPrefix(chain netinfo.Chain) []byte { return []byte{tagTPS, byte(chain)} }

func tpsKey(chain netinfo.Chain, dayStart int64) []byte {
	return binary.BigEndian.AppendUint64(tpsPrefix(chain), uint64(dayStart))
}

func beUint64(b []byte) uint64 { return binary.BigEndian.Uint64(b) }
