package handlertest

import (
	"context"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// DescribeContract answers as the node would: c with the name, symbol and
// decimals OnChain holds for it (and its standard, when c's is unknown);
// a contract OnChain does not hold answers as if every call reverted.
func (f *EVM) DescribeContract(ctx context.Context, _ netinfo.Chain, c evmdata.Contract) (evmdata.Contract, error) {
	f.mu.Lock()
	f.Describes++
	on, ok := f.OnChain[c.Address]
	err := f.OnChainErr
	f.mu.Unlock()
	if err := f.wait(ctx); err != nil {
		return c, err
	}
	if err != nil {
		return c, err
	}
	if !ok {
		return c, nil
	}
	c.Name, c.Symbol, c.Decimals, c.HasDecimal = on.Name, on.Symbol, on.Decimals, on.HasDecimal
	if c.Kind == evmdata.ErcUnknown {
		c.Kind = on.Kind
	}
	return c, nil
}
