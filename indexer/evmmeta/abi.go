package evmmeta

import (
	"math/big"
	"strings"
	"unicode/utf8"
)

// Selectors of the read-only calls that describe a token contract.
var (
	selName              = []byte{0x06, 0xfd, 0xde, 0x03}
	selSymbol            = []byte{0x95, 0xd8, 0x9b, 0x41}
	selDecimals          = []byte{0x31, 0x3c, 0xe5, 0x67}
	selSupportsInterface = []byte{0x01, 0xff, 0xc9, 0xa7}
	selTokenURI          = []byte{0xc8, 0x7b, 0x56, 0xdd}
	selURI               = []byte{0x0e, 0x89, 0x34, 0x1c}

	ifaceERC721  = []byte{0x80, 0xac, 0x58, 0xcd}
	ifaceERC1155 = []byte{0xd9, 0xb6, 0x7a, 0x26}
)

// maxStringLen bounds strings read from contracts; a token name is short, a
// data: URI with an embedded image may not be.
const maxStringLen = 256 << 10

// withWord appends a 32-byte ABI word to a selector.
func withWord(sel []byte, word []byte) []byte {
	out := make([]byte, 4+32)
	copy(out, sel)
	copy(out[4+32-len(word):], word)
	return out
}

func withUint(sel []byte, v *big.Int) []byte {
	var w [32]byte
	v.FillBytes(w[:])
	return withWord(sel, w[:])
}

// decodeString reads an ABI-encoded string return value, or a bytes32 one
// (old tokens such as MKR return their name as bytes32). ok is false for
// anything else, so a contract that answers garbage gets no name rather
// than a wrong one.
func decodeString(ret []byte) (string, bool) {
	if len(ret) == 32 {
		s := strings.TrimRight(string(ret), "\x00")
		return s, utf8.ValidString(s) && !strings.ContainsRune(s, 0)
	}
	if len(ret) < 64 {
		return "", false
	}
	offset := new(big.Int).SetBytes(ret[:32])
	if !offset.IsUint64() || offset.Uint64() > uint64(len(ret)-32) {
		return "", false
	}
	start := int(offset.Uint64())
	length := new(big.Int).SetBytes(ret[start : start+32])
	if !length.IsUint64() || length.Uint64() > uint64(len(ret)-start-32) || length.Uint64() > maxStringLen {
		return "", false
	}
	s := string(ret[start+32 : start+32+int(length.Uint64())])
	return s, utf8.ValidString(s)
}

// decodeUint8 reads a uint8 return value (decimals).
func decodeUint8(ret []byte) (uint8, bool) {
	if len(ret) != 32 {
		return 0, false
	}
	v := new(big.Int).SetBytes(ret)
	if !v.IsUint64() || v.Uint64() > 255 {
		return 0, false
	}
	return uint8(v.Uint64()), true
}

// decodeBool reads a bool return value.
func decodeBool(ret []byte) bool {
	return len(ret) == 32 && new(big.Int).SetBytes(ret).Cmp(big.NewInt(1)) == 0
}
