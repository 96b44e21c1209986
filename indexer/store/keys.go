package store

import (
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/indexer/metricdata"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// The key layout of avadata's Badger index. Every key starts with a one-byte
// keyspace tag, then (for chain data) the chain's registry number; integers
// are fixed-width big-endian so that byte order is numeric order and range
// scans work. This file lists every keyspace: a new capability adds its tags
// here, and bumps SchemaVersion when it changes the meaning of existing keys.
//
//	tag   key                                                value
//	0x00  meta | name                                        meta record (schema version, page-token key, webhook
//	                                                         shared secret)
//	0x01  cursor | chain | stream(1)                         cursor: next height, last-applied time, last block time,
//	                                                         first height held (history.go; absent: 1)
//	0x02  chainreg | blockchainID(32)                        chain number (1 byte), see registry.go
//	0x03  bsrc | chain                                       where the P/X index read its blocks (blocksource.go):
//	                                                         source(1) (1: the VM's getBlockByHeight) | flags(1)
//	                                                         (bit 0: a DAG era it misses); absent: the index API
//	0x04  backfill | chain                                   a back-fill under way (backfill.go): phase, the height the
//	                                                         running state counted from, next height to re-derive;
//	                                                         absent: the running state counts from the cursor's first
//	                                                         height
//	0x10  ptx | txID(32)                                     primary tx record (rowcodec, primaryrows.go): chain, height,
//	                                                         index, block ID, time, outcome, type, signed bytes,
//	                                                         consumed / produced / unstaked UTXO IDs
//	0x11  paddr | chain | addr(20) | height(8) | index(4)    txID(32): the tx involves addr (owner of a consumed or
//	                                                         produced UTXO, signer, reward owner, EVM account)
//	0x12  pchtx | chain | height(8) | index(4)               txID(32): the chain's txs in order
//	0x13  asset | assetID(32)                                asset description (name, symbol, denomination, type)
//	0x14  passet | chain | assetID(32) | height(8) | index(4)   txID(32): the tx consumes, produces or creates the
//	                                                         asset (or moves it to or from C-chain accounts); the
//	                                                         asset's txs in order (assettx.go)
//	0x20  utxo | utxoID(32)                                  UTXO creation (utxorows.go): created chain, creating tx,
//	                                                         height, time, hold chain, pdata.UTXO fields, unstaked time
//	0x21  spent | utxoID(32)                                 UTXO consumption: consuming chain, tx, height, time
//	0x22  uaddr | holdChain | addr(20) | utxoID(32)          balance row of one owner: asset, amount, created and
//	                                                         consumed time, locktimes, stake period, unstaked time,
//	                                                         atomic flag + source chain ID (a function of 0x20 + 0x21)
//	0x23  utimeu | holdChain | addr(20) | createdTime(8) | utxoID(32)   asset(32) | amount(8): the owner's unspent
//	                                                         UTXOs by creation time (utxolist.go)
//	0x24  uamtu | holdChain | addr(20) | amount(8) | utxoID(32)   asset(32) | amount(8): the same by amount
//	0x25  utimes | holdChain | addr(20) | createdTime(8) | utxoID(32)   as 0x23, for spent UTXOs (a consumption
//	                                                         moves the UTXO's rows from 0x23-0x24 to 0x25-0x26)
//	0x26  uamts | holdChain | addr(20) | amount(8) | utxoID(32)   as 0x24, for spent UTXOs
//	0x30  staker | stakingTxID(32)                           staker record (stakerrows.go): staking tx type, block,
//	                                                         pdata.Staker, then how it ended: reward tx, time,
//	                                                         outcome, rewards and their owners by reward type;
//	                                                         or remove tx and time (permissioned subnet validators)
//	0x31  stknode | nodeID(20) | kind(1) | start(8) | txID(32)   staker summary: end, weight, subnet, VALIDATOR_FEE
//	                                                         paid by its reward tx (kind 0 validator, 1 delegator)
//	0x32  stkaddr | addr(20) | kind(1) | start(8) | txID(32)  "" : addr is in the staker's rewards owner or
//	                                                         delegation rewards owner
//	0x33  stkorder | kind(1) | start(8) | txID(32)           "" : every staker of a kind in listing order
//	0x34  rwdaddr | addr(20) | time(8) | utxoID(32)          stakingTxID(32): a reward UTXO addr owns, paid at time
//	                                                         (the reward tx's block time)
//	0x35  rwdnode | nodeID(20) | time(8) | utxoID(32)        stakingTxID(32): a reward UTXO paid for a staker of
//	                                                         the node (a delegator's VALIDATOR_FEE included)
//	0x36  l1val | validationID(32)                           nodeID(20) | subnetID(32) | creating txID(32) of an
//	                                                         L1 validation (l1validation.go)
//	0x37  ppend | start(8) | priority(1) | txID(32)          "" : a pre-Durango primary-network staker still pending,
//	                                                         in platformvm's promotion order (supply.go)
//	0x38  l1end | validationID(32)                           EndAccumulatedFee(8) of an active L1 validator (l1fees.go)
//	0x39  l1act | endAccumulatedFee(8) | validationID(32)    "" : the active L1 validators in the order platformvm
//	                                                         deactivates them (l1fees.go)
//	0x3A  l1weight | validationID(32)                        weight(8) of an L1 validation now: what its creating tx
//	                                                         gave it, then each SetL1ValidatorWeightTx (0: removed)
//	                                                         (l1validationstate.go)
//	0x3B  stkday | subnetID(32) | day(8)                     staking figures (stakeseries.go): validator count,
//	                                                         weight(16), delegator count, weight(16) of the subnet's
//	                                                         current set after the last block of the UTC day that
//	                                                         changed it (a day without a row carries the newest
//	                                                         earlier one)
//	0x3C  stknow | 0 | subnetID(32)                          the subnet's staking figures now (as 0x3B)
//	0x3C  stknow | 1 | time(8) | event(1) | txID(32)         "" : what the P-chain time reaching time does to the
//	                                                         current set: event 0 a pre-Durango pending staker
//	                                                         becomes current, 1 a permissioned subnet validator ends
//	0x3C  stknow | 2                                         the P-chain height(8) the figures count from (0: genesis;
//	                                                         a store written before them starts where it resumed)
//	0x3D  l1fday | dayStart(8)                               the L1 validator fee series' day (l1feeseries.go): accrued
//	                                                         fees and the total charged to every L1 validation after
//	                                                         the day's last P block, validations charged that day,
//	                                                         whether the day's active ones were counted, and those
//	                                                         activated since
//	0x3E  l1fval | validationID(32)                          an L1 validation's fee series row: creation day, last day
//	                                                         counted as paying, active periods in accrued-fee terms
//	                                                         (from, from day, paid up to, stop day)
//	0x3F  l1fby | kind(1) | owner | validationID(32)         "" : the validation belongs to the subnet (kind 0, owner
//	                                                         subnetID(32)) or the node (kind 1, owner nodeID(20))
//	0x40  block | chain | height(8)                          P/X block record (primaryrows.go): id, parent, time,
//	                                                         next chain time, type, size, tx count, P-chain current
//	                                                         supply and L1 validator fee state (accrued fees,
//	                                                         excess, active count) after the block (when known),
//	                                                         proposer
//	0x41  bprop | chain | nodeID(20) | height(8)             "" : the block's proposer (blocks with a proposer NodeID)
//	0x42  vtx | index(8)                                     X-chain DAG vertex record (vertex.go): id, parent IDs,
//	                                                         DAG height, time (node acceptance), size, tx IDs;
//	                                                         keyed by acceptance index in the node's vertex index
//	0x43  vtxh | dagHeight(8) | index(8)                     "" : the vertex at that index has that DAG height
//	0x44  vtxtx | txID(32) | index(8)                        "" : the vertex at that acceptance index holds the
//	                                                         DAG-era X-chain tx (dagtx.go; a tx may be in several)
//	0x45  bid | chain | blockID(32)                          height(8) of the P/X block with that (outer) ID
//	                                                         (blockid.go)
//	0x46  vtxid | vertexID(32)                               acceptance index(8) of the X-chain DAG vertex
//	                                                         (vertex.go)
//	0x50  subnet | subnetID(32)                              subnet record (subnetrows.go): creating tx's place and
//	                                                         time, current owner, ConvertSubnetToL1Tx ID and validator
//	                                                         manager (the primary network's is written at genesis)
//	0x51  chain | blockchainID(32)                           blockchain record (subnetrows.go): subnet, creating tx's
//	                                                         place and time, name, VM ID, genesis bytes (the P-chain's
//	                                                         own is written at genesis)
//	0x52  subchain | subnetID(32) | height(8) | index(4) | blockchainID(32)   "" : a blockchain of the subnet, in
//	                                                         creation order
//	0x53  subord | height(8) | index(4) | subnetID(32)       "" : every subnet in creation order
//	0x54  chainord | height(8) | index(4) | blockchainID(32)   "" : every blockchain in creation order
//	0x60  pburn | height(8)                                  P-chain AVAX burned up to the block (burns.go): tx fees,
//	                                                         L1 validator balances deposited and refunded, and the
//	                                                         active L1 validators' summed EndAccumulatedFee
//	0x61  xburn | height(8)                                  X-chain AVAX burned by the linear chain's txs up to the
//	                                                         block (burns.go)
//	0x62  cburn | height(8)                                  C-chain AVAX burned up to the block (burns.go): by atomic
//	                                                         txs (nAVAX) and by EVM tx fees (wei)
//	0x63  lock | unlock(8) | utxoID(32)                      amount(8): an unspent AVAX UTXO time-locked until unlock
//	                                                         (locked.go; a function of 0x20 + 0x21)
//	0x80  etx | chain | height(8) | index(4)                 EVM tx with its receipt (rowcodec, evmrows.go)
//	0x81  eblk | chain | height(8)                           EVM block header summary (evmrows.go), with the fees its
//	                                                         txs paid and the chain's cumulative tx count (carried
//	                                                         from the previous block's row, evmblocks.go)
//	0x82  eaddr | chain | addr(20) | height(8)              the block's tx indexes(4 each) that involve addr other
//	                                                         than as sender, recipient or created contract (those
//	                                                         have the native 0x95 rows): in a token transfer or an
//	                                                         internal tx. A position list (positionlist.go); an
//	                                                         index written before holds a row per tx, ... | height |
//	                                                         index(4) = "", and 0x82 rows for every role. An
//	                                                         address's txs are the merge of the two (AddressTxs),
//	                                                         which reads a tx in both once
//	0x83  etok | chain | token(20) | height(8)               the block's transfers of token, log(4) | batch(2) each: a
//	                                                         position list (positionlist.go; before, a row per
//	                                                         transfer, ... | height | log | batch = "")
//	0x84  etxh | chain | txHash(32)                          height(8) | index(4)
//	0x85  etr | chain | height(8) | log(4) | batch(2)        token transfer record (with its tx index)
//	0x86  eitx | chain | height(8) | index(4) | frame(4)     internal tx record
//	0x87  edeploy | chain | contract(20)                     deployment record
//	0x88  econ | chain | contract(20)                        contract record (kind, name, symbol, decimals)
//	0x89  tps | chain | dayStart(8)                          TPSBucket (4 x uint64)
//	0x8A  enftown | chain | contract(20) | tokenID(32)       ERC-721 owner(20)
//	0x8B  enftby | chain | owner(20) | contract(20) | tokenID(32)   kind(1) | balance (ERC-1155)
//	0x8C  eholder | chain | contract(20) | holder(20)        tokens held (uint64)
//	0x8D  ecoll | chain | contract(20)                       holders(8) | tokens(8)
//	0x8E  e1155 | chain | contract(20) | tokenID(32)         ERC-1155 supply of the id (big-endian bytes)
//	0x8F  emetaq | chain | contract(20)                      "" : contract whose on-chain metadata is to be read
//	0x90  enftmeta | chain | contract(20) | tokenID(32)      NFT token URI and metadata (rowcodec)
//	0x91  enftq | chain | contract(20) | tokenID(32)         kind(1) : token whose URI and metadata are to be read
//	0x92  eholdh | chain | contract(20) | holder(20) | height(8)   tokens held from that block on (history of 0x8C)
//	0x93  ecollh | chain | contract(20) | height(8)          holders(8) | tokens(8) from that block on (history of 0x8D)
//	0x94  enftbyh | chain | owner(20) | contract(20) | tokenID(32) | height(8)   kind(1) | balance from that block on
//	                                                         (history of 0x8B; kind 0: no longer held)
//	0x95  eakind | chain | addr(20) | kind(1) | height(8)   the address's activity of one kind in the block, for its
//	                                                         typed histories (evmactivity.go): a position list
//	                                                         (positionlist.go; before, a row per position, ... |
//	                                                         height | rest = ""). The rest of a position by kind:
//	                                                         native index(4) (top-level sender, recipient or created
//	                                                         contract); erc20/erc721/erc1155 log(4) | batch(2)
//	                                                         (sender or receiver of the transfer at 0x85); internal
//	                                                         index(4) | frame(4) (sender or receiver of the frame at
//	                                                         0x86)
//	0x96  eatok | chain | addr(20) | token(20)               kind(1): the address sent or received transfers of the
//	                                                         token (the candidates of its token balances)
//	0x97  edeployby | chain | deployer(20) | height(8) | index(4) | contract(20)   "" : a contract the deployer made:
//	                                                         the sender of its creation tx, and for a contract-made
//	                                                         one also the creating contract
//	0x98  ebhash | chain | blockHash(32)                     height(8)
//	0x99  estatus | chain | status(1) | height(8) | index(4)   "" : a tx whose receipt status is not 1 (success),
//	                                                         so the latest failed txs list without reading the others
//	                                                         (evmblocks.go); the succeeded ones list from 0x80. An
//	                                                         index written before this holds status-1 rows too,
//	                                                         which nothing reads
//	0x9A  enftreidx | chain | contract(20) | tokenID(32)     time(8): when a client last asked to re-read the token's
//	                                                         URI and metadata (reindexNft's cooldown, evmreindex.go)
//	0x9B  emetric | chain | g(1) | start(8)                 the chain's activity over one time bucket (evmmetric.go):
//	                                                         metricdata.ChainBucket in a fixed layout (big ints as 32
//	                                                         bytes); g a metricdata.Granularity, start its Unix second
//	0x9C  elast | chain | role(1) | addr(20)                 hour(8): the start of the last hour bucket in which addr
//	                                                         had the role (metricdata.Role); absent: never
//	0x9D  elasth | chain | role(1) | hour(8) | addr(20)      "" : the same by hour (moved when 0x9C changes), so the
//	                                                         addresses active since an hour are a keys-only count
//	0x9E  emtot | chain                                      the chain's running totals after the last block counted
//	                                                         (height, time, txs, addresses, contracts, deployers)
//	0x9F  etokaddr | chain | token(20) | addr(20)            kind(1): 0x96 reversed (the token's parties); none for blocks indexed before it
//	0xB0  xjob | jobID(16)                                   export job record (exportjob.go): the job's signed
//	                                                         operation ID, state, progress, result size, times
//	0xB1  xpart | jobID(16) | part(4)                        one part of the job's CSV result, in order
//	0xB2  hook | webhookID(16)                               webhook record (webhook.go): what it watches, where it
//	                                                         sends, its status and the height its events begin at
//	0xB3  hookout | webhookID(16) | height(8) | seq(4)       one event waiting for delivery: its canonical JSON body,
//	                                                         written with its block (webhookevent.go), deleted once
//	                                                         the receiver took it; seq counts the webhook's events
//	                                                         within the block of the watched chain
//	0xB4  hookfail | webhookID(16)                           Unix ms(8): when the webhook's current run of failed
//	                                                         deliveries began (webhookfailure.go); absent: its last
//	                                                         delivery succeeded (or none was tried), or its status
//	                                                         or URL changed since
//
// Reserved for the capabilities that come next: 0xA0-0xAF signature
// aggregation; 0x64 the burns of the pre-Cortina X-chain DAG.
//
// Vertex rows (0x42-0x44, 0x46) are the X-chain's only and carry no chain byte;
// the vertex writer advances the X-chain's StreamVertices cursor. It also
// writes the vertices' txs through the primary tx rows (0x10-0x13,
// 0x20-0x22) like any X-chain tx, placed where the DAG sits in the chain's
// history: after the genesis txs and before linear block 1, at height 0 and
// index dagTxIndexBase + n for the n-th DAG tx the index holds (the genesis
// txs keep indexes below dagTxIndexBase); a DAG tx's record names the first
// vertex that holds it as its block, and that vertex's time.
//
// Staker and reward rows (0x30-0x35) are P-chain data written only by the
// P writer, keyed by the staking tx (and for rewards by the reward UTXO), so
// re-writing a block rewrites the same keys with the same values. The
// supply the P writer tracks (supply.go) is state carried from block to
// block (the previous block record's supply, the pending rows 0x37, the
// staker rows' potential rewards), and so is the L1 validator fee state
// (l1fees.go: the previous block record's, the active L1 validator rows
// 0x38-0x39), and the L1 validator fee series carried from day row to day
// row (0x3D-0x3F, l1feeseries.go; a store written before them has none and
// gets them on a rebuild): they rely on each block being committed exactly
// once, with the cursor (commit.go). So does the EVM block row's cumulative tx count
// (the previous block row's count plus the block's txs, evmblocks.go), and
// the burn totals (0x60-0x62, burns.go: the previous row's plus the
// block's).
//
// UTXO rows (0x20, 0x21) are keyed by UTXO ID alone: an exported UTXO is
// created by one chain's writer and consumed by another's, and both find it
// there. Balance rows (0x22) sit under the chain that holds the UTXO: the
// creating chain, or for an export the destination chain's atomic memory.
// The listing rows (0x23-0x26) sit beside the balance rows, under the same
// chain, and are written with them.
const (
	tagMeta     byte = 0x00
	tagCursor   byte = 0x01
	tagChainReg byte = 0x02
	tagBlockSrc byte = 0x03
	tagBackfill byte = 0x04
	tagPTx      byte = 0x10
	tagPAddr    byte = 0x11
	tagPChainTx byte = 0x12
	tagAsset    byte = 0x13
	tagPAsset   byte = 0x14
	tagUTXO     byte = 0x20
	tagSpent    byte = 0x21
	tagUAddr    byte = 0x22
	tagUTimeU   byte = 0x23
	tagUAmtU    byte = 0x24
	tagUTimeS   byte = 0x25
	tagUAmtS    byte = 0x26
	tagStaker   byte = 0x30
	tagStkNode  byte = 0x31
	tagStkAddr  byte = 0x32
	tagStkOrder byte = 0x33
	tagRwdAddr  byte = 0x34
	tagRwdNode  byte = 0x35
	tagL1Val    byte = 0x36
	tagPending  byte = 0x37
	tagL1End    byte = 0x38
	tagL1Active byte = 0x39
	tagL1Weight byte = 0x3A
	tagStakeDay byte = 0x3B
	tagStakeNow byte = 0x3C
	tagL1FeeDay byte = 0x3D
	tagL1FeeVal byte = 0x3E
	tagL1FeeBy  byte = 0x3F
	tagBlock    byte = 0x40
	tagProposer byte = 0x41
	tagVertex   byte = 0x42
	tagVtxH     byte = 0x43
	tagVtxTx    byte = 0x44
	tagBlockID  byte = 0x45
	tagVtxID    byte = 0x46
	tagSubnet   byte = 0x50
	tagBchain   byte = 0x51
	tagSubChain byte = 0x52
	tagSubOrder byte = 0x53
	tagBchOrder byte = 0x54
	tagPBurn    byte = 0x60
	tagXBurn    byte = 0x61
	tagCBurn    byte = 0x62
	tagLock     byte = 0x63
	tagEVMTx    byte = 0x80
	tagEVMBlock byte = 0x81
	tagEVMAddr  byte = 0x82
	tagEVMToken byte = 0x83
	tagEVMHash  byte = 0x84
	tagEVMXfer  byte = 0x85
	tagEVMITx   byte = 0x86
	tagDeploy   byte = 0x87
	tagContract byte = 0x88
	tagTPS      byte = 0x89
	tagNFTOwner byte = 0x8A
	tagNFTBy    byte = 0x8B
	tagHolder   byte = 0x8C
	tagColl     byte = 0x8D
	tag1155     byte = 0x8E
	tagMetaQ    byte = 0x8F
	tagNFTMeta  byte = 0x90
	tagNFTQ     byte = 0x91
	tagHolderH  byte = 0x92
	tagCollH    byte = 0x93
	tagNFTByH   byte = 0x94
	tagActivity byte = 0x95
	tagAddrTok  byte = 0x96
	tagDeployBy byte = 0x97
	tagEVMBHash byte = 0x98
	tagTxStatus byte = 0x99
	tagReindex  byte = 0x9A
	tagEMetric  byte = 0x9B
	tagELast    byte = 0x9C
	tagELastH   byte = 0x9D
	tagEMTotals byte = 0x9E
	tagTokAddr  byte = 0x9F
	tagXJob     byte = 0xB0
	tagXPart    byte = 0xB1
	tagHook     byte = 0xB2
	tagHookOut  byte = 0xB3
	tagHookFail byte = 0xB4
)

// maxKeyLen is the length of the layout's longest key (0x94: tag, chain,
// owner, contract, token ID, height): a reverse scan of a whole prefix
// starts from a key longer than any (pastPrefix).
const maxKeyLen = 1 + 1 + 20 + 20 + 32 + 8

// SchemaVersion is the layout version written into a new store. Opening a
// store written with another version fails with a message that says how to
// rebuild it.
// (4: staker and reward rows; a store of version 3 lacks them for the blocks
// it holds. 5: DAG-era X-chain txs and their vertex rows (0x44); a store of
// version 4 lacks them for the vertices it holds. 6: the P-chain current
// supply in block records, potential rewards in staker rows and the pending
// staker rows (0x37); a version 5 store has no supply to carry on from.
// 7: the L1 validator fee state in block records and the active L1
// validator rows (0x38, 0x39); a version 6 block record does not decode.
// 8: the tx that created an L1 validation in its row (0x36); a version 7
// row lacks it. 9: the EVM activity, address-token, deployer and block-hash
// rows (0x95-0x98), the status rows (0x99) and the block rows' fees and
// cumulative tx counts; a version 8 store lacks them for the blocks it
// holds. 10: the asset tx rows (0x14), the UTXO listing rows (0x23-0x26),
// the L1 validations' current weights (0x3A), the block-ID and vertex-ID
// rows (0x45, 0x46), the subnet and blockchain rows (0x50-0x54), the burn
// totals (0x60-0x62) and the lock rows (0x63); a version 9 store lacks them
// for what it holds, and has no burns to carry on from. 11: the position
// lists (0x82, 0x83, 0x95), no 0x82 rows for a tx's native parties and
// status rows (0x99) for failed txs alone; this version reads a version 10
// store as it is, and marks it 11 on opening (readableSchemaVersion), since
// a version 10 binary would misread the rows it writes from then on.)
const SchemaVersion uint32 = 11

// readableSchemaVersion is the version before SchemaVersion whose stores
// this one reads unchanged (checkSchema).
const readableSchemaVersion uint32 = 10

var (
	metaSchemaKey   = []byte{tagMeta, 's', 'c', 'h', 'e', 'm', 'a'}
	metaTokenKeyKey = []byte{tagMeta, 't', 'o', 'k', 'e', 'n', 'k', 'e', 'y'}
	// metaWebhookSecretKey holds the webhooks' shared secret (webhook.go).
	metaWebhookSecretKey = []byte{tagMeta, 'w', 'h', 's', 'e', 'c', 'r', 'e', 't'}
)

func cursorKey(c netinfo.Chain, s Stream) []byte { return append(newKey(tagCursor, c), byte(s)) }

func blockKey(chain netinfo.Chain, height uint64) []byte {
	return append(sizedKey(10, tagBlock), byte(chain)).u64(height)
}

func ptxKey(id ids.ID) []byte   { return sizedKey(33, tagPTx).id(id) }
func assetKey(id ids.ID) []byte { return key{tagAsset}.id(id) }
func utxoKey(id ids.ID) []byte  { return sizedKey(33, tagUTXO).id(id) }
func spentKey(id ids.ID) []byte { return sizedKey(33, tagSpent).id(id) }

func chainTxKey(chain netinfo.Chain, pos pdata.TxPos) []byte {
	return append(sizedKey(14, tagPChainTx), byte(chain)).u64(pos.Height).u32(pos.Index)
}

func addrTxPrefix(chain netinfo.Chain, addr ids.ShortID) key {
	return newKey(tagPAddr, chain).shortID(addr)
}

// addrTxKey is the whole 0x11 key: addr's row of the tx at pos.
func addrTxKey(chain netinfo.Chain, addr ids.ShortID, pos pdata.TxPos) []byte {
	return append(sizedKey(34, tagPAddr), byte(chain)).shortID(addr).u64(pos.Height).u32(pos.Index)
}

func uaddrPrefix(hold netinfo.Chain, addr ids.ShortID) key {
	return newKey(tagUAddr, hold).shortID(addr)
}

// uaddrKey is the whole 0x22 key: addr's balance row of the UTXO.
func uaddrKey(hold netinfo.Chain, addr ids.ShortID, utxo ids.ID) []byte {
	return append(sizedKey(54, tagUAddr), byte(hold)).shortID(addr).id(utxo)
}

// utxoListPrefix is where addr's rows of one UTXO listing order (0x23-0x26)
// on the hold chain start; the keys go on with sortKey(8) | utxoID(32).
func utxoListPrefix(tag byte, hold netinfo.Chain, addr ids.ShortID) key {
	return append(sizedKey(22, tag), byte(hold)).shortID(addr)
}

// utxoListKey is the whole key of one UTXO listing row.
func utxoListKey(tag byte, hold netinfo.Chain, addr ids.ShortID, sortKey uint64, utxo ids.ID) []byte {
	return append(sizedKey(62, tag), byte(hold)).shortID(addr).u64(sortKey).id(utxo)
}

func proposerPrefix(chain netinfo.Chain, node ids.NodeID) key {
	return newKey(tagProposer, chain).bytes(node.Bytes())
}

// proposerKey is the whole 0x41 key: node proposed the block at height.
func proposerKey(chain netinfo.Chain, node ids.NodeID, height uint64) []byte {
	return append(sizedKey(30, tagProposer), byte(chain)).bytes(node.Bytes()).u64(height)
}

// Staker kinds in the staker index keys: validators sort before delegators.
const (
	kindValidator byte = 0
	kindDelegator byte = 1
)

func stakerKind(delegator bool) byte {
	if delegator {
		return kindDelegator
	}
	return kindValidator
}

func stakerKey(txID ids.ID) []byte { return key{tagStaker}.id(txID) }

// pendingKey orders pending stakers as platformvm's state.Staker.Less does
// for them: start time, then pending priority, then tx ID bytes.
func pendingKey(start int64, priority uint8, txID ids.ID) []byte {
	return key{tagPending}.u64(uint64(start)).bytes([]byte{priority}).id(txID)
}

// The staker and reward index keys end in a position, u64(8) | id(32): a
// staker's start and staking tx ID, or a reward's time and UTXO ID. The
// prefixes are built fresh on each call, so callers may append to them.

func stakerNodePrefix(node ids.NodeID, kind byte) key {
	return key{tagStkNode}.bytes(node.Bytes()).bytes([]byte{kind})
}

func stakerAddrPrefix(addr ids.ShortID, kind byte) key {
	return key{tagStkAddr}.shortID(addr).bytes([]byte{kind})
}

func stakerOrderPrefix(kind byte) key { return key{tagStkOrder, kind} }

func rewardAddrPrefix(addr ids.ShortID) key { return key{tagRwdAddr}.shortID(addr) }
func rewardNodePrefix(node ids.NodeID) key  { return key{tagRwdNode}.bytes(node.Bytes()) }

func tpsPrefix(chain netinfo.Chain) []byte { return newKey(tagTPS, chain) }

func tpsKey(chain netinfo.Chain, dayStart int64) []byte {
	return newKey(tagTPS, chain).u64(uint64(dayStart))
}

// metricBucketKey is the whole 0x9B key of chain's bucket of granularity g
// starting at start.
func metricBucketKey(chain netinfo.Chain, g metricdata.Granularity, start int64) []byte {
	return append(sizedKey(11, tagEMetric), byte(chain), byte(g)).u64(uint64(start))
}

func metricBucketPrefix(chain netinfo.Chain, g metricdata.Granularity) key {
	return key{tagEMetric, byte(chain), byte(g)}
}

// lastActiveKey is the whole 0x9C key: the last hour addr had role.
func lastActiveKey(chain netinfo.Chain, role metricdata.Role, addr common.Address) []byte {
	return append(sizedKey(23, tagELast), byte(chain), byte(role)).addr(addr)
}

func lastActiveHourPrefix(chain netinfo.Chain, role metricdata.Role) key {
	return key{tagELastH, byte(chain), byte(role)}
}

// lastActiveHourKey is the whole 0x9D key: addr's last hour with role is hour.
func lastActiveHourKey(chain netinfo.Chain, role metricdata.Role, hour int64, addr common.Address) []byte {
	return append(sizedKey(31, tagELastH), byte(chain), byte(role)).u64(uint64(hour)).addr(addr)
}

func metricTotalsKey(chain netinfo.Chain) []byte { return newKey(tagEMTotals, chain) }
