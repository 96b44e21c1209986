package store

import (
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/dgraph-io/badger/v4"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
)

// A reverse scan of a whole prefix starts past it at a key of maxKeyLen+1
// bytes (pastPrefix), which is only right while no key is longer: the
// longest key the writers make, an NFT holding's history row (0x94), is
// exactly maxKeyLen.
func TestMaxKeyLenIsTheLongestKey(t *testing.T) {
	require := require.New(t)
	s := openTest(t, t.TempDir())
	defer s.Close()
	var c chainBuilder
	applyEVM(t, s, c.block(transferTx(alice, multi,
		nftMove(evmdata.Erc1155, multi, common.Address{}, alice, 7, 10, 0),
		nftMove(evmdata.Erc1155, multi, alice, bob, 7, 4, 1))))
	sf := newStakingFixture()
	st := openStaking(t, sf)
	writeP(t, st, sf.before)
	writeP(t, st, sf.after)
	f := newFixture()
	p := writeExportFirst(t, f)

	longest := 0
	for _, store := range []*Store{s, st, p} {
		require.NoError(store.db.View(func(txn *badger.Txn) error {
			it := txn.NewIterator(badger.IteratorOptions{})
			defer it.Close()
			for it.Rewind(); it.Valid(); it.Next() {
				longest = max(longest, len(it.Item().Key()))
			}
			return nil
		}))
	}
	require.Equal(maxKeyLen, longest)
}

// pastPrefix sorts after every key under its prefix and before the next
// prefix, so a reverse Seek from it lands on the prefix's last key.
func TestPastPrefixIsAfterEveryKeyOfThePrefix(t *testing.T) {
	prefix := []byte{tagNFTByH, 1}
	full := append(append([]byte(nil), prefix...), make([]byte, maxKeyLen-len(prefix))...)
	for i := len(prefix); i < len(full); i++ {
		full[i] = 0xFF
	}
	past := pastPrefix(prefix)
	require.Greater(t, string(past), string(full))
	require.Less(t, string(past), string([]byte{tagNFTByH, 2}))
}
