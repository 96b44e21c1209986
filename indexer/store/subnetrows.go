package store

import (
	"encoding/binary"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/indexer/pdata"
)

// Keys and records of the subnet and blockchain registry (0x50-0x54). The
// order rows end in a creation place, height(8) | index(4), then the ID,
// so a listing resumes after (place, ID).

func subnetKey(id ids.ID) []byte     { return key{tagSubnet}.id(id) }
func blockchainKey(id ids.ID) []byte { return key{tagBchain}.id(id) }

func subnetChainPrefix(subnet ids.ID) key { return key{tagSubChain}.id(subnet) }

// registryOrderKey is the whole key of an order row: prefix, then the
// creation place and the ID.
func registryOrderKey(prefix key, pos pdata.RegistryPos) []byte {
	k := make(key, 0, len(prefix)+8+4+ids.IDLen)
	return append(k, prefix...).u64(pos.Created.Height).u32(pos.Created.Index).id(pos.ID)
}

// registryPosOf decodes the suffix of an order row (after its prefix).
func registryPosOf(suffix []byte) (pdata.RegistryPos, bool) {
	if len(suffix) != 8+4+ids.IDLen {
		return pdata.RegistryPos{}, false
	}
	var pos pdata.RegistryPos
	pos.Created.Height = beUint64(suffix[:8])
	pos.Created.Index = binary.BigEndian.Uint32(suffix[8:12])
	copy(pos.ID[:], suffix[12:])
	return pos, true
}

func encodeSubnet(s *pdata.Subnet) []byte {
	var w rowWriter
	w.uint(s.Created.Height)
	w.uint(uint64(s.Created.Index))
	w.int(s.CreatedTime)
	writeOwners(&w, &s.Owner)
	w.id(s.ConversionTx)
	w.bool(s.Manager != nil)
	if m := s.Manager; m != nil {
		w.id(m.BlockchainID)
		w.bytes(m.Address)
	}
	return w.buf
}

func decodeSubnet(id ids.ID, b []byte) (pdata.Subnet, error) {
	r := rowReader{buf: b}
	s := pdata.Subnet{ID: id}
	s.Created.Height = r.uint()
	s.Created.Index = uint32(r.uint())
	s.CreatedTime = r.int()
	s.Owner = *readOwners(&r)
	s.ConversionTx = r.id()
	if r.bool() {
		s.Manager = &pdata.L1Manager{BlockchainID: r.id(), Address: r.bytes()}
	}
	return s, r.done()
}

func encodeBlockchain(c *pdata.IndexedBlockchain) []byte {
	var w rowWriter
	w.id(c.Subnet)
	w.uint(c.Created.Height)
	w.uint(uint64(c.Created.Index))
	w.int(c.CreatedTime)
	w.string(c.Name)
	w.id(c.VMID)
	w.bytes(c.Genesis)
	return w.buf
}

func decodeBlockchain(id ids.ID, b []byte) (pdata.IndexedBlockchain, error) {
	r := rowReader{buf: b}
	c := pdata.IndexedBlockchain{Blockchain: pdata.Blockchain{ID: id}}
	c.Subnet = r.id()
	c.Created.Height = r.uint()
	c.Created.Index = uint32(r.uint())
	c.CreatedTime = r.int()
	c.Name = r.string()
	c.VMID = r.id()
	c.Genesis = r.bytes()
	return c, r.done()
}
