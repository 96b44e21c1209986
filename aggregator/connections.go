package aggregator

import (
	"context"
	"fmt"
	"net/netip"
	"sync"
	"time"

	"github.com/ava-labs/avalanchego/api/info"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/logging"
	"go.uber.org/zap"
)

// connectionKeeper keeps the aggregator connected to the validators it
// will ask, from start-up on, so a request finds them connected (icm-services
// connects lazily and fails requests right after it starts):
//
//   - the host node is the first peer: its staking address comes from its
//     own info API over loopback, and it gossips the others' IPs;
//   - info.peers of the host gives the addresses of the validators it is
//     connected to, dialled at once instead of waiting for gossip;
//   - the network's validators.Manager holds the current validators of the
//     primary network, and of every subnet asked for in the last
//     subnetIdleAfter, so the network dials those and keeps them dialled.
type connectionKeeper struct {
	log        logging.Logger
	view       *validatorView
	net        *peerNetwork
	metrics    *metrics
	hostNodeID ids.NodeID
	refresh    time.Duration

	mu      sync.Mutex
	subnets map[ids.ID]time.Time             // subnet → last asked for (primary: never dropped)
	wanted  map[ids.ID]map[ids.NodeID]uint64 // validators to connect, as of the last refresh
	hostIP  netip.AddrPort
	uri     string // the host node's HTTP address, once known
	lastErr error  // of the last refresh; nil when it went well
	wake    chan struct{}
}

// stake is a subnet's connected weight.
type stake struct {
	Connected, Total uint64
}

// subnetIdleAfter is how long a subnet nobody asks for keeps its
// validators dialled.
const subnetIdleAfter = 10 * time.Minute

func newConnectionKeeper(log logging.Logger, view *validatorView, net *peerNetwork, m *metrics,
	hostNodeID ids.NodeID, refresh time.Duration,
) *connectionKeeper {
	return &connectionKeeper{
		log: log, view: view, net: net, metrics: m, hostNodeID: hostNodeID, refresh: refresh,
		subnets: map[ids.ID]time.Time{constants.PrimaryNetworkID: {}},
		wanted:  map[ids.ID]map[ids.NodeID]uint64{},
		lastErr: errNotStarted,
		wake:    make(chan struct{}, 1),
	}
}

var errNotStarted = fmt.Errorf("the aggregator has not reached its node's API yet")

// use records that subnetID's validators are asked for; a subnet new to
// the keeper gets its validators dialled right away.
func (k *connectionKeeper) use(subnetID ids.ID) {
	k.mu.Lock()
	_, known := k.subnets[subnetID]
	if subnetID != constants.PrimaryNetworkID {
		k.subnets[subnetID] = time.Now()
	}
	k.mu.Unlock()
	if !known {
		select {
		case k.wake <- struct{}{}:
		default:
		}
	}
}

// run keeps the connections until ctx ends. nodeURI blocks until the host
// node's HTTP address is known.
func (k *connectionKeeper) run(ctx context.Context, nodeURI func(context.Context) (string, error)) {
	uri, err := nodeURI(ctx)
	if err != nil {
		k.setErr(fmt.Errorf("finding the node's API: %w", err))
		return
	}
	k.mu.Lock()
	k.uri = uri
	k.mu.Unlock()
	client := info.NewClient(uri)
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		case <-k.wake:
		}
		err := k.refreshOnce(ctx, client)
		k.setErr(err)
		if err != nil && ctx.Err() == nil {
			k.log.Warn("signature aggregator: keeping validator connections failed; retrying", zap.Error(err))
		}
		// Look again soon while some validator is still unconnected (it
		// may be dialling), else at the refresh interval.
		next := k.refresh
		if err != nil || !k.allConnected() {
			next = min(next, unconnectedRefresh)
		}
		timer.Reset(next)
	}
}

// unconnectedRefresh is how soon the keeper looks again while a validator
// it wants is not connected.
const unconnectedRefresh = 2 * time.Second

// allConnected reports whether every wanted validator was connected at the
// last refresh.
func (k *connectionKeeper) allConnected() bool {
	for _, s := range k.currentStake() {
		if s.Connected < s.Total {
			return false
		}
	}
	return true
}

// nodeURI is the host node's HTTP address; "" until it is known.
func (k *connectionKeeper) nodeURI() string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.uri
}

func (k *connectionKeeper) setErr(err error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.lastErr = err
}

// refreshOnce brings the manager up to date with the P-chain, then dials
// what is known of the validators still unconnected.
func (k *connectionKeeper) refreshOnce(ctx context.Context, client *info.Client) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	subnets := k.activeSubnets()
	wanted := map[ids.ID]map[ids.NodeID]uint64{}
	for _, subnetID := range subnets {
		vdrs, err := k.view.currentValidators(ctx, subnetID)
		if err != nil {
			return err
		}
		wanted[subnetID] = vdrs
	}
	k.syncManager(wanted)
	if len(wanted[constants.PrimaryNetworkID]) == 0 {
		// A node without sybil protection reports no validators, and would
		// take the aggregator for one: it asks its peers to help bootstrap
		// its subnets, and the aggregator never answers. There is nothing to
		// sign with there anyway.
		k.measure(wanted)
		return nil
	}
	if err := k.connectHost(ctx, client); err != nil {
		return err
	}
	unconnected := k.measure(wanted)
	if len(unconnected) == 0 {
		return nil
	}
	peers, err := client.Peers(ctx, nil)
	if err != nil {
		return fmt.Errorf("reading the node's peers (info.peers): %w", err)
	}
	for _, p := range peers {
		if !unconnected[p.ID] {
			continue
		}
		ip := p.PublicIP
		if !ip.IsValid() || ip.Addr().IsUnspecified() {
			ip = p.IP
		}
		k.net.track(p.ID, ip)
	}
	return nil
}

// connectHost dials the host node at the staking address it advertises.
func (k *connectionKeeper) connectHost(ctx context.Context, client *info.Client) error {
	if k.net.connected([]ids.NodeID{k.hostNodeID}).Len() > 0 {
		return nil
	}
	ip, err := client.GetNodeIP(ctx)
	if err != nil {
		return fmt.Errorf("reading the node's staking address (info.getNodeIP): %w", err)
	}
	k.mu.Lock()
	first := !k.hostIP.IsValid()
	k.hostIP = ip
	k.mu.Unlock()
	if first {
		k.log.Info("signature aggregator: connecting to the host node first",
			zap.Stringer("hostNodeID", k.hostNodeID), zap.Stringer("ip", ip))
	}
	k.net.track(k.hostNodeID, ip)
	return nil
}

// activeSubnets returns the primary network and the subnets asked for
// lately, forgetting the others.
func (k *connectionKeeper) activeSubnets() []ids.ID {
	k.mu.Lock()
	defer k.mu.Unlock()
	out := make([]ids.ID, 0, len(k.subnets))
	for subnetID, last := range k.subnets {
		if subnetID != constants.PrimaryNetworkID && time.Since(last) > subnetIdleAfter {
			delete(k.subnets, subnetID)
			k.metrics.connectedStake.DeleteLabelValues(subnetID.String())
			continue
		}
		out = append(out, subnetID)
	}
	return out
}

// syncManager makes the network's validators.Manager hold exactly the
// wanted subnets' validators with their weights; the network dials who is
// added and stops redialling who is removed.
func (k *connectionKeeper) syncManager(wanted map[ids.ID]map[ids.NodeID]uint64) {
	mgr := k.net.validators
	for subnetID, have := range mgr.GetAllMaps() {
		want := wanted[subnetID]
		for nodeID, vdr := range have {
			w, keep := want[nodeID]
			switch {
			case !keep:
				k.logManagerErr(mgr.RemoveWeight(subnetID, nodeID, vdr.Weight))
			case w > vdr.Weight:
				k.logManagerErr(mgr.AddWeight(subnetID, nodeID, w-vdr.Weight))
			case w < vdr.Weight:
				k.logManagerErr(mgr.RemoveWeight(subnetID, nodeID, vdr.Weight-w))
			}
		}
	}
	for subnetID, want := range wanted {
		for nodeID, w := range want {
			if mgr.GetWeight(subnetID, nodeID) == 0 {
				k.logManagerErr(mgr.AddStaker(subnetID, nodeID, nil, ids.Empty, w))
			}
		}
	}
}

func (k *connectionKeeper) logManagerErr(err error) {
	if err != nil {
		k.log.Warn("signature aggregator: updating the validators to dial", zap.Error(err))
	}
}

// measure keeps the wanted validators, records each subnet's connected
// weight and returns the validators not connected.
func (k *connectionKeeper) measure(wanted map[ids.ID]map[ids.NodeID]uint64) map[ids.NodeID]bool {
	k.mu.Lock()
	k.wanted = wanted
	k.mu.Unlock()
	unconnected := map[ids.NodeID]bool{}
	for subnetID, s := range k.stakeOf(wanted, unconnected) {
		ratio := 0.0
		if s.Total > 0 {
			ratio = float64(s.Connected) / float64(s.Total)
		}
		k.metrics.connectedStake.WithLabelValues(subnetID.String()).Set(ratio)
	}
	k.metrics.connectedPeers.Set(float64(k.net.peerCount()))
	return unconnected
}

// stakeOf is each subnet's connected weight now; the unconnected
// validators are added to unconnected when it is not nil.
func (k *connectionKeeper) stakeOf(wanted map[ids.ID]map[ids.NodeID]uint64, unconnected map[ids.NodeID]bool) map[ids.ID]stake {
	stakes := make(map[ids.ID]stake, len(wanted))
	for subnetID, vdrs := range wanted {
		nodeIDs := make([]ids.NodeID, 0, len(vdrs))
		for nodeID := range vdrs {
			nodeIDs = append(nodeIDs, nodeID)
		}
		connected := k.net.connected(nodeIDs)
		var s stake
		for nodeID, w := range vdrs {
			s.Total += w
			if connected.Contains(nodeID) {
				s.Connected += w
			} else if unconnected != nil {
				unconnected[nodeID] = true
			}
		}
		stakes[subnetID] = s
	}
	return stakes
}

// currentStake is each kept subnet's connected weight now.
func (k *connectionKeeper) currentStake() map[ids.ID]stake {
	k.mu.Lock()
	wanted := k.wanted
	k.mu.Unlock()
	return k.stakeOf(wanted, nil)
}

// status returns each kept subnet's connected weight now, and the last
// refresh's error.
func (k *connectionKeeper) status() (map[ids.ID]stake, error) {
	k.mu.Lock()
	err := k.lastErr
	k.mu.Unlock()
	return k.currentStake(), err
}
