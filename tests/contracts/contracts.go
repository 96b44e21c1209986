// Package contracts holds the compiled test contracts that the end-to-end
// tests deploy on a local network to make real EVM activity: ERC-20, ERC-721
// and ERC-1155 tokens, a factory that creates contracts (CREATE and CREATE2),
// a forwarder that moves value through internal calls, and a contract that
// reverts.
//
// The Solidity sources are in src/; the artifacts in artifacts/ are built
// from them by compile.sh (make contracts) and committed, because tests must
// not fetch a compiler. They are embedded, so a test binary needs no files.
package contracts

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/ava-labs/libevm/accounts/abi"
	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
)

// The contract names, one per artifact.
const (
	NameTestERC20   = "TestERC20"
	NameTestERC721  = "TestERC721"
	NameTestERC1155 = "TestERC1155"
	NameFactory     = "Factory"
	NameChild       = "Child"
	NameForwarder   = "Forwarder"
	NameReverter    = "Reverter"
)

// NameTestRebasingERC20 names the rebasing ERC-20 (balances not following
// its Transfer logs).
const NameTestRebasingERC20 = "TestRebasingERC20"

// artifactFiles is read-only: embed.FS cannot be changed at run time.
//
//go:embed artifacts/*.json
var artifactFiles embed.FS

// Artifact is one compiled contract.
type Artifact struct {
	Name string
	ABI  abi.ABI
	// Bytecode is the creation code, without constructor arguments.
	Bytecode []byte
	// DeployedBytecode is the runtime code. It equals eth_getCode of a
	// deployed instance unless the contract has immutables (Child does).
	DeployedBytecode []byte
}

// artifactJSON is the file format compile.sh writes.
type artifactJSON struct {
	ABI              json.RawMessage `json:"abi"`
	Bytecode         hexutil.Bytes   `json:"bytecode"`
	DeployedBytecode hexutil.Bytes   `json:"deployedBytecode"`
}

// Load parses the embedded artifact of the contract called name. Each call
// returns a new Artifact, so callers may keep or change it freely.
func Load(name string) (*Artifact, error) {
	b, err := artifactFiles.ReadFile(path.Join("artifacts", name+".json"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("contracts: no artifact %q (have %s)", name, strings.Join(Names(), ", "))
	}
	if err != nil {
		return nil, fmt.Errorf("contracts: reading artifact %q: %w", name, err)
	}
	var raw artifactJSON
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("contracts: decoding artifact %q: %w", name, err)
	}
	parsed, err := abi.JSON(bytes.NewReader(raw.ABI))
	if err != nil {
		return nil, fmt.Errorf("contracts: parsing ABI of %q: %w", name, err)
	}
	if len(raw.Bytecode) == 0 {
		return nil, fmt.Errorf("contracts: artifact %q has no bytecode", name)
	}
	return &Artifact{Name: name, ABI: parsed, Bytecode: raw.Bytecode, DeployedBytecode: raw.DeployedBytecode}, nil
}

// MustLoad is Load for artifacts known to exist; it panics otherwise. The
// artifacts are embedded and checked by this package's tests, so a panic
// means a broken build, not a runtime condition.
func MustLoad(name string) *Artifact {
	a, err := Load(name)
	if err != nil {
		panic(err)
	}
	return a
}

// Names lists the embedded artifacts, sorted.
func Names() []string {
	entries, err := artifactFiles.ReadDir("artifacts")
	if err != nil {
		// Cannot happen: the embed pattern guarantees the directory.
		return nil
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".json"))
	}
	sort.Strings(names)
	return names
}

// TestERC20 is an ERC-20 (18 decimals) with constructor(name, symbol) and a
// public mint(address,uint256).
func TestERC20() *Artifact { return MustLoad(NameTestERC20) }

// TestERC721 is an ERC-721 with constructor(name, symbol), a public
// mint(address) returning ids 1, 2, ... and data: URI metadata.
func TestERC721() *Artifact { return MustLoad(NameTestERC721) }

// TestERC1155 is an ERC-1155 with constructor(uri) (an {id} template) and
// public mint(to,id,amount) and mintBatch(to,ids,amounts).
func TestERC1155() *Artifact { return MustLoad(NameTestERC1155) }

// Factory deploys two Child contracts per create(bytes32 salt) call, one
// with CREATE and one with CREATE2, splitting msg.value between them.
func Factory() *Artifact { return MustLoad(NameFactory) }

// Child is what Factory deploys.
func Child() *Artifact { return MustLoad(NameChild) }

// Forwarder sends value on through internal calls: forward(to) and
// split(a, b).
func Forwarder() *Artifact { return MustLoad(NameForwarder) }

// Reverter has alwaysRevert() (fails with RevertReason) and tryInner() (an
// inner call that reverts, caught, in a successful transaction).
func Reverter() *Artifact { return MustLoad(NameReverter) }

// TestRebasingERC20 is an ERC-20 with constructor(name, symbol) whose
// balanceOf does not follow its Transfer logs: public mint(to, amount),
// transfer(to, amount) and rebase(index), which changes every balance
// (shares * index / 1e18) without a Transfer event.
func TestRebasingERC20() *Artifact { return MustLoad(NameTestRebasingERC20) }

// RevertReason is the reason Reverter.alwaysRevert reverts with.
const RevertReason = "Reverter: always reverts"

// DeployData is the creation code followed by the ABI-encoded constructor
// arguments: the data of a contract-creation transaction.
func (a *Artifact) DeployData(args ...any) ([]byte, error) {
	packed, err := a.ABI.Pack("", args...)
	if err != nil {
		return nil, fmt.Errorf("contracts: encoding constructor arguments of %s: %w", a.Name, err)
	}
	return append(append([]byte{}, a.Bytecode...), packed...), nil
}

// Pack ABI-encodes a call of method with args (selector included).
func (a *Artifact) Pack(method string, args ...any) ([]byte, error) {
	data, err := a.ABI.Pack(method, args...)
	if err != nil {
		return nil, fmt.Errorf("contracts: encoding %s.%s: %w", a.Name, method, err)
	}
	return data, nil
}

// Unpack decodes the return data of method.
func (a *Artifact) Unpack(method string, data []byte) ([]any, error) {
	out, err := a.ABI.Unpack(method, data)
	if err != nil {
		return nil, fmt.Errorf("contracts: decoding the result of %s.%s: %w", a.Name, method, err)
	}
	return out, nil
}

// MethodName returns the Go ABI name of the method with signature sig,
// e.g. "safeTransferFrom(address,address,uint256)". Overloaded methods get
// names like "safeTransferFrom0" in ABI-file order, so tests pick them by
// signature rather than guessing the suffix.
func (a *Artifact) MethodName(sig string) (string, error) {
	for name, m := range a.ABI.Methods {
		if m.Sig == sig {
			return name, nil
		}
	}
	return "", fmt.Errorf("contracts: %s has no method %s", a.Name, sig)
}

// EventID is topic 0 of the event called name.
func (a *Artifact) EventID(name string) (common.Hash, error) {
	ev, ok := a.ABI.Events[name]
	if !ok {
		return common.Hash{}, fmt.Errorf("contracts: %s has no event %q", a.Name, name)
	}
	return ev.ID, nil
}

// ParseEvent decodes a log of the event called name into its arguments by
// name, indexed ones from topics[1:] and the rest from data. It checks that
// topic 0 is the event's ID and that the topic count matches, which is what
// tells an ERC-20 Transfer (3 topics) from an ERC-721 one (4 topics).
func (a *Artifact) ParseEvent(name string, topics []common.Hash, data []byte) (map[string]any, error) {
	ev, ok := a.ABI.Events[name]
	if !ok {
		return nil, fmt.Errorf("contracts: %s has no event %q", a.Name, name)
	}
	var indexed abi.Arguments
	for _, arg := range ev.Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if len(topics) != 1+len(indexed) || topics[0] != ev.ID {
		return nil, fmt.Errorf("contracts: log is not %s.%s (%d topics, want %d with topic 0 %s)",
			a.Name, ev.Sig, len(topics), 1+len(indexed), ev.ID)
	}
	out := make(map[string]any, len(ev.Inputs))
	if err := abi.ParseTopicsIntoMap(out, indexed, topics[1:]); err != nil {
		return nil, fmt.Errorf("contracts: decoding topics of %s.%s: %w", a.Name, name, err)
	}
	if err := ev.Inputs.UnpackIntoMap(out, data); err != nil {
		return nil, fmt.Errorf("contracts: decoding data of %s.%s: %w", a.Name, name, err)
	}
	return out, nil
}
