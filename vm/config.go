package vm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/avadata/avadata/indexer/netinfo"
)

// Config is the avadata chain config: the JSON file the node hands the VM as
// configBytes (<data-dir>/configs/chains/<chainID>/config.json). Every key is
// optional; README.md documents each one and its default.
type Config struct {
	// NodeURI is the node's own HTTP address, used over loopback to follow
	// the chains. Empty: read from <data-dir>/process.json.
	NodeURI string `json:"nodeURI"`
	// Alias is the chain alias the VM registers with admin.aliasChain so the
	// API lives at /ext/bc/<alias>. Empty string disables aliasing.
	Alias *string `json:"alias"`
	// Chains lists the followed primary-network chains, from "P", "X", "C".
	Chains []string `json:"chains"`
	// EVMChains says which EVM chains beyond the C-chain to follow:
	// "tracked" (every EVM chain the node runs) or a list of blockchain IDs
	// or aliases.
	EVMChains EVMChainSelection `json:"evmChains"`
	// IndexFrom says where each chain's index begins the first time it is
	// followed (config_indexfrom.go).
	IndexFrom IndexFromConfig `json:"indexFrom"`
	// Fetchers is how many batches a follower fetches at once while
	// catching up (1..32).
	Fetchers int `json:"fetchers"`
	// TraceInternalTxs records internal transactions and contracts created
	// by contracts from the node's callTracer (needs "debug-tracer" in the
	// chain's eth-apis).
	TraceInternalTxs *bool `json:"traceInternalTxs"`
	// NFTMetadata says whether and how NFT metadata documents behind http(s)
	// and ipfs token URIs are fetched (data: URIs are always decoded).
	NFTMetadata NFTMetadataConfig `json:"nftMetadata"`
	// ContractMetadataFile names an optional JSON file of curated contract
	// metadata (description, links, logo...) served with contract metadata.
	ContractMetadataFile string `json:"contractMetadataFile"`
	// PollInterval is how often a caught-up EVM follower asks the node for
	// new blocks; it bounds how long an accepted block takes to be served.
	PollInterval Duration `json:"pollInterval"`
	// PrimaryPollInterval is the same for the P- and X-chain followers,
	// whose blocks are rarer and bound no latency target.
	PrimaryPollInterval Duration `json:"primaryPollInterval"`
	// BatchSize is how many blocks a follower fetches and writes at once (1..1024).
	BatchSize int `json:"batchSize"`
	// BackfillBlocksPerSecond bounds the pace of an EVM chain's back-fill
	// toward indexFrom's height (follower/backfill.go), so that filling
	// years of history on an archive node leaves the node room for its own
	// work; 0: as fast as the node serves.
	BackfillBlocksPerSecond float64 `json:"backfillBlocksPerSecond"`
	// MaxLagBlocks is the lag, in blocks, beyond which a follower that has
	// caught up once is reported unhealthy. 0 disables the bound.
	MaxLagBlocks uint64 `json:"maxLagBlocks"`
	// StuckAfter is how long a follower may be behind the node without
	// progress before it is reported unhealthy.
	StuckAfter Duration `json:"stuckAfter"`
	// APIKeys are the accepted API keys (x-data-api-key / x-glacier-api-key).
	APIKeys []string `json:"apiKeys"`
	// RateLimit bounds requests per second for anonymous and keyed clients.
	RateLimit RateLimitConfig `json:"rateLimit"`
	// AdminAPIEnabled exposes avadata.pauseFollower/resumeFollower over JSON-RPC.
	// It also exposes avadata.exportWebhooks/importWebhooks, which copy the
	// webhooks and their secret between replicas.
	AdminAPIEnabled bool `json:"adminApiEnabled"`
	// RequestTimeout is the time budget of every API request (REST and
	// JSON-RPC); past it the client gets a 503. 0: serve.DefaultRequestTimeout.
	RequestTimeout Duration `json:"requestTimeout"`
	// MaxRequestBodyBytes bounds every request body (413 beyond).
	// 0: serve.DefaultMaxBodyBytes.
	MaxRequestBodyBytes int64 `json:"maxRequestBodyBytes"`
	// PageTokenSecret is the hex secret that signs page tokens, shared by
	// replicas behind one load balancer so that any of them accepts a token
	// another cut. Empty: a random per-node secret kept in the index.
	PageTokenSecret string `json:"pageTokenSecret"`
	// Aggregator tunes the signature aggregator (sigagg.go).
	SignatureAggregator SignatureAggregatorConfig `json:"signatureAggregator"`
	// SpamTokens lists, by EVM chain id ("43114"), token contracts that
	// filterSpamTokens always leaves out (handlers/evm/spam.go).
	SpamTokens map[string][]string `json:"spamTokens"`
	// Exports bounds the transaction export jobs (exports.go).
	Exports ExportsConfig `json:"exports"`
	// Webhooks bounds and secures the webhooks (webhooks.go).
	Webhooks WebhooksConfig `json:"webhooks"`
}

// NFTMetadataConfig is the nftMetadata key. Fetching is off by default: it
// makes the node call addresses that token contracts choose (never
// loopback, private or link-local ones, whatever the setting).
type NFTMetadataConfig struct {
	Fetch       bool     `json:"fetch"`
	IPFSGateway string   `json:"ipfsGateway"`
	Timeout     Duration `json:"timeout"`
	MaxBytes    int64    `json:"maxBytes"`
}

// RateLimitConfig holds the token buckets and how clients are told apart;
// zero values take the defaults (serve.Default* and limits.Default*).
type RateLimitConfig struct {
	// AnonymousRPS/AnonymousBurst size each client address's bucket.
	AnonymousRPS   float64 `json:"anonymousRps"`
	AnonymousBurst int     `json:"anonymousBurst"`
	// KeyRPS/KeyBurst size each API key's bucket.
	KeyRPS   float64 `json:"keyRps"`
	KeyBurst int     `json:"keyBurst"`
	// TrustedProxies lists the IPs or CIDR blocks whose X-Forwarded-For is
	// believed. Absent: loopback; []: nobody.
	TrustedProxies []string `json:"trustedProxies"`
	// TrustUnknownPeer believes X-Forwarded-For on requests whose direct
	// peer the node does not name (plain HTTP/1.1).
	TrustUnknownPeer bool `json:"trustUnknownPeer"`
	// MaxClients bounds the per-address buckets kept in memory.
	MaxClients int `json:"maxClients"`
}

// Defaults of the config keys.
const (
	DefaultAlias               = "data"
	DefaultPollInterval        = 50 * time.Millisecond
	DefaultPrimaryPollInterval = 250 * time.Millisecond
	DefaultBatchSize           = 256
	DefaultMaxLagBlocks        = 1000
	DefaultStuckAfter          = 2 * time.Minute
	DefaultFetchers            = 4
	maxBatchSize               = 1024 // index.getContainerRange's own cap
	maxFetchers                = 32
)

// ParseConfig decodes configBytes strictly (unknown keys are an error, so a
// typo never silently falls back to a default) and applies defaults.
func ParseConfig(configBytes []byte) (Config, error) {
	cfg := Config{MaxLagBlocks: DefaultMaxLagBlocks}
	if len(bytes.TrimSpace(configBytes)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(configBytes))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&cfg); err != nil {
			return Config{}, fmt.Errorf("invalid avadata chain config: %w", err)
		}
		if dec.More() {
			return Config{}, errors.New("invalid avadata chain config: trailing data after the JSON object")
		}
	}
	if cfg.Alias == nil {
		alias := DefaultAlias
		cfg.Alias = &alias
	}
	if cfg.Chains == nil {
		cfg.Chains = []string{"P", "X", "C"}
	}
	if cfg.PollInterval == 0 {
		cfg.PollInterval = Duration(DefaultPollInterval)
	}
	if cfg.PrimaryPollInterval == 0 {
		cfg.PrimaryPollInterval = Duration(DefaultPrimaryPollInterval)
	}
	if cfg.BatchSize == 0 {
		cfg.BatchSize = DefaultBatchSize
	}
	if cfg.StuckAfter == 0 {
		cfg.StuckAfter = Duration(DefaultStuckAfter)
	}
	if cfg.Fetchers == 0 {
		cfg.Fetchers = DefaultFetchers
	}
	if cfg.TraceInternalTxs == nil {
		trace := true
		cfg.TraceInternalTxs = &trace
	}
	if !cfg.EVMChains.set {
		cfg.EVMChains = EVMChainSelection{set: true, Tracked: true}
	}
	return cfg, cfg.validate()
}

func (c Config) validate() error {
	if c.BatchSize < 1 || c.BatchSize > maxBatchSize {
		return fmt.Errorf("invalid avadata chain config: batchSize %d out of range 1..%d", c.BatchSize, maxBatchSize)
	}
	if c.Fetchers < 1 || c.Fetchers > maxFetchers {
		return fmt.Errorf("invalid avadata chain config: fetchers %d out of range 1..%d", c.Fetchers, maxFetchers)
	}
	if c.NFTMetadata.Timeout < 0 || c.NFTMetadata.MaxBytes < 0 {
		return errors.New("invalid avadata chain config: nftMetadata.timeout and maxBytes must be positive")
	}
	if c.PollInterval < 0 || c.PrimaryPollInterval < 0 || c.StuckAfter < 0 {
		return errors.New("invalid avadata chain config: pollInterval, primaryPollInterval and stuckAfter must be positive")
	}
	if c.BackfillBlocksPerSecond < 0 {
		return errors.New("invalid avadata chain config: backfillBlocksPerSecond must not be negative")
	}
	if err := c.IndexFrom.validate(); err != nil {
		return fmt.Errorf("invalid avadata chain config: %w", err)
	}
	if err := c.validateHTTPLimits(); err != nil {
		return fmt.Errorf("invalid avadata chain config: %w", err)
	}
	if _, err := c.FollowedChains(); err != nil {
		return fmt.Errorf("invalid avadata chain config: %w", err)
	}
	if _, err := c.pageTokenSecret(); err != nil {
		return fmt.Errorf("invalid avadata chain config: %w", err)
	}
	if _, err := c.spamTokens(); err != nil {
		return fmt.Errorf("invalid avadata chain config: %w", err)
	}
	if err := c.Webhooks.validate(); err != nil {
		return fmt.Errorf("invalid avadata chain config: %w", err)
	}
	return nil
}

// FollowedChains parses Chains, rejecting duplicates.
func (c Config) FollowedChains() ([]netinfo.Chain, error) {
	seen := map[netinfo.Chain]bool{}
	chains := make([]netinfo.Chain, 0, len(c.Chains))
	for _, s := range c.Chains {
		chain, err := netinfo.ParseChain(s)
		if err != nil {
			return nil, fmt.Errorf("chains: %w", err)
		}
		if seen[chain] {
			return nil, fmt.Errorf("chains: %s listed twice", chain)
		}
		seen[chain] = true
		chains = append(chains, chain)
	}
	return chains, nil
}

// Duration is a time.Duration written in JSON as a Go duration string ("500ms").
type Duration time.Duration

func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("duration must be a string such as \"500ms\": %w", err)
	}
	parsed, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*d = Duration(parsed)
	return nil
}

// EVMChainSelection is the evmChains key: the string "tracked", or a list of
// blockchain IDs or aliases ([] follows no EVM chain beyond the C-chain).
type EVMChainSelection struct {
	set     bool
	Tracked bool
	Chains  []string
}

func (e EVMChainSelection) MarshalJSON() ([]byte, error) {
	if e.Tracked {
		return json.Marshal(trackedEVMChains)
	}
	return json.Marshal(append([]string{}, e.Chains...))
}

func (e *EVMChainSelection) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		if s != trackedEVMChains {
			return fmt.Errorf("evmChains: want %q or a list of blockchain IDs or aliases, got %q", trackedEVMChains, s)
		}
		*e = EVMChainSelection{set: true, Tracked: true}
		return nil
	}
	var list []string
	if err := json.Unmarshal(b, &list); err != nil {
		return fmt.Errorf("evmChains: want %q or a list of blockchain IDs or aliases: %w", trackedEVMChains, err)
	}
	for _, c := range list {
		if c == "" {
			return errors.New("evmChains: empty chain name")
		}
	}
	*e = EVMChainSelection{set: true, Chains: list}
	return nil
}

const trackedEVMChains = "tracked"
