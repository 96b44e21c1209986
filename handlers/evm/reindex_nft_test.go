package evm

import (
	"math/big"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/evmdata"
)

func reindexPath(id string) string { return tokensPath(handlertest.Kitties) + "/" + id + ":reindex" }

func TestReindexNft(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	srv := newTestAPI(t, newTestConfig(), backend)
	key := []string{"x-glacier-api-key", "known-key"}

	rec := srv.Request(t, http.MethodPost, reindexPath("9"), "", key...)
	require.Equal(t, http.StatusCreated, rec.Code, rec.Body.String())
	require.JSONEq(t, `{}`, rec.Body.String())
	require.Equal(t, []evmdata.TokenRef{{Contract: handlertest.Kitties, TokenID: big.NewInt(9), Kind: evmdata.Erc721}}, backend.EVM.Reindexes)
	require.Equal(t, []evmdata.ReindexLimits{{Cooldown: time.Hour, MaxQueued: DefaultReindexQueue}}, backend.EVM.ReindexLimits)

	rec = srv.Request(t, http.MethodPost, tokensPath(handlertest.Items)+"/3:reindex", "", "x-data-api-key", "known-key")
	require.Equal(t, http.StatusCreated, rec.Code, rec.Body.String())
	require.Equal(t, evmdata.Erc1155, backend.EVM.Reindexes[1].Kind)

	backend.EVM.ReindexAnswer = &evmdata.ReindexOutcome{RetryAfter: 90*time.Second + time.Millisecond}
	rec = srv.Request(t, http.MethodPost, reindexPath("9"), "", key...)
	handlertest.RequireDataError(t, rec, http.StatusTooManyRequests, "once every 1h0m0s", "try again in 1m30s")
	require.Equal(t, "91", rec.Header().Get("Retry-After"))

	backend.EVM.ReindexAnswer = &evmdata.ReindexOutcome{QueueFull: true}
	rec = srv.Request(t, http.MethodPost, reindexPath("9"), "", key...)
	handlertest.RequireDataError(t, rec, http.StatusServiceUnavailable, "queue of tokens to reindex", "1000 tokens")
	require.Equal(t, "30", rec.Header().Get("Retry-After"))
}

func TestReindexNftBounds(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	cfg := newTestConfig()
	cfg.EVM.NFTReindex = evmdata.ReindexLimits{Cooldown: time.Minute, MaxQueued: 5}
	srv := newTestAPI(t, cfg, backend)
	key := []string{"x-glacier-api-key", "known-key"}

	handlertest.RequireDataError(t, srv.Request(t, http.MethodPost, reindexPath("9"), ""), http.StatusUnauthorized,
		"reindexNft needs an API key")
	handlertest.RequireDataError(t, srv.Request(t, http.MethodPost, reindexPath("abc"), ""), http.StatusUnauthorized,
		"API key") // no key: refused before anything is read
	handlertest.RequireDataError(t, srv.Request(t, http.MethodPost, reindexPath("abc"), "", key...), http.StatusBadRequest, "tokenId")
	handlertest.RequireDataError(t, srv.Request(t, http.MethodPost, reindexPath("8"), "", key...), http.StatusNotFound,
		"token 8", "never minted, or burnt")
	handlertest.RequireDataError(t, srv.Request(t, http.MethodPost, tokensPath(handlertest.Alice)+"/1:reindex", "", key...),
		http.StatusNotFound, "not a contract known")
	handlertest.RequireDataError(t, srv.Request(t, http.MethodGet, reindexPath("9"), "", key...), http.StatusBadRequest, "tokenId")
	require.Empty(t, backend.EVM.Reindexes, "nothing was queued")

	rec := srv.Request(t, http.MethodPost, reindexPath("1"), "", key...)
	require.Equal(t, http.StatusCreated, rec.Code)
	require.Equal(t, []evmdata.ReindexLimits{{Cooldown: time.Minute, MaxQueued: 5}}, backend.EVM.ReindexLimits, "configured bounds")
}
