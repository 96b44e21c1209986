package seed

import (
	"fmt"
	"io"
	"time"
)

// WriteSummary prints what s holds (accounts, contracts, transactions) and
// the example curl lines against the avadata API at baseURL, each under a
// comment saying what it answers.
func WriteSummary(w io.Writer, baseURL string, s *Sample) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	p("sample data (made %s in %s):", s.MadeAt.Local().Format("2006-01-02 15:04:05"), s.Took.Round(100*time.Millisecond))
	p("  sender      %s  %s  %s", s.Sender.EVM.Hex(), s.Sender.X, s.Sender.P)
	p("  recipient   %s  %s", s.Recipient.EVM.Hex(), s.Recipient.X)
	p("  ERC-20      %s", s.ERC20.Hex())
	p("  ERC-721     %s  (the recipient holds token %d)", s.ERC721.Hex(), s.ERC721RecipientToken)
	p("  ERC-1155    %s", s.ERC1155.Hex())
	for _, tx := range s.EVMTxs {
		p("  C  %-28s %s", tx.Label, tx.Hash.Hex())
	}
	for _, tx := range s.PrimaryTxs {
		p("  %s  %-28s %s", tx.Chain, tx.Label, tx.ID)
	}
	if s.Warp != nil {
		p("  C  %-28s 0x%x", "warp message (unsigned)", []byte(s.Warp.Message))
		if !s.Warp.Signable {
			p("    (nobody can sign it here: the network has no validator sets, aggregateSignatures answers 404)")
		}
	}
	p("")
	p("examples (each answers with the sample's data):")
	for _, ex := range Examples(baseURL, s) {
		p("  # %s", ex.What)
		p("  %s", ex.Curl())
	}
}
