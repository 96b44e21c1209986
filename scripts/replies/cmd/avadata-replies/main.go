// Command avadata-replies records every route's reply of a running avadata
// API for a fixed request set, and replays a record to show that the
// replies did not change:
//
//	avadata-replies record --base http://127.0.0.1:9850/ext/bc/data --node http://127.0.0.1:9850 --out before.json
//	avadata-replies replay --base http://127.0.0.1:9850/ext/bc/data --node http://127.0.0.1:9850 --in before.json [--out after.json]
//
// Both first wait (--wait, default 5m) until avadata's /v1/status shows
// every follower caught up. replay prints "N replies identical, M differ"
// and every difference, and exits with status 1 when a reply differs.
//
// To compare two builds of the plugin, record on a seeded data dir with
// one build, stop the node, start the same data dir with the other build
// (`make run DATA_DIR=... HTTP_PORT=9850 STAKING_PORT=9851` in the worktree
// whose build/plugins holds it; a seeded data dir is not seeded again) and
// replay. The requests are in scripts/replies/requests.txt; a record keeps
// them, so a replay needs only the record.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/avadata/avadata/scripts/replies"
)

// errDiffer is returned when a replay found differences: exit status 1,
// after the report said which.
var errDiffer = errors.New("replies differ from the record")

func main() {
	if err := run(os.Args[1:]); err != nil {
		if !errors.Is(err, errDiffer) {
			fmt.Fprintln(os.Stderr, "avadata-replies:", err)
		}
		os.Exit(1)
	}
}

func usage() error {
	return errors.New("usage: avadata-replies record|replay [flags]; see -h of each")
}

func run(args []string) error {
	if len(args) == 0 {
		return usage()
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	switch args[0] {
	case "record":
		return record(ctx, args[1:])
	case "replay":
		return replay(ctx, args[1:])
	default:
		return usage()
	}
}

// commonFlags are the flags of both modes.
type commonFlags struct {
	base, node string
	wait       time.Duration
}

func addCommonFlags(fs *flag.FlagSet) *commonFlags {
	var c commonFlags
	fs.StringVar(&c.base, "base", "http://127.0.0.1:9850/ext/bc/data", "the avadata API's base URL")
	fs.StringVar(&c.node, "node", "http://127.0.0.1:9850", "the node's HTTP address")
	fs.DurationVar(&c.wait, "wait", 5*time.Minute, "how long to wait for avadata's followers to catch up before sending anything")
	return &c
}

// client returns the client of the flags once avadata's followers have
// caught up.
func (c *commonFlags) client(ctx context.Context) (*replies.Client, error) {
	client := replies.NewClient(c.base, c.node)
	if err := replies.WaitCaughtUp(ctx, client, c.wait); err != nil {
		return nil, err
	}
	return client, nil
}

func record(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("record", flag.ContinueOnError)
	common := addCommonFlags(fs)
	out := fs.String("out", "", "the record file to write")
	setFile := fs.String("requests", "", "a request set file (default: the one built in, scripts/replies/requests.txt)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		return errors.New("record: --out is required")
	}
	text := replies.DefaultRequestSet
	if *setFile != "" {
		b, err := os.ReadFile(*setFile)
		if err != nil {
			return fmt.Errorf("record: reading the request set: %w", err)
		}
		text = string(b)
	}
	set, err := replies.ParseRequestSet(text)
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	client, err := common.client(ctx)
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	ids, err := replies.Discover(ctx, client)
	if err != nil {
		return fmt.Errorf("record: discovering the network's IDs: %w", err)
	}
	rec, err := replies.RecordReplies(ctx, client, set, ids)
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	if err := replies.WriteRecord(*out, rec); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	order, counts := replies.RouteCounts(rec)
	fmt.Printf("recorded %d requests in %s\n", len(rec.Exchanges), *out)
	for _, route := range order {
		fmt.Printf("  %4d  %s\n", counts[route], route)
	}
	return nil
}

func replay(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	common := addCommonFlags(fs)
	in := fs.String("in", "", "the record file to replay")
	out := fs.String("out", "", "also write the replay's own record here")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *in == "" {
		return errors.New("replay: --in is required")
	}
	rec, err := replies.ReadRecord(*in)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	client, err := common.client(ctx)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	res, err := replies.Replay(ctx, client, rec)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	if *out != "" {
		if err := replies.WriteRecord(*out, res.Live); err != nil {
			return fmt.Errorf("replay: %w", err)
		}
	}
	if err := res.Report(os.Stdout); err != nil {
		return err
	}
	if res.Differ > 0 {
		return errDiffer
	}
	return nil
}
