package store

import "github.com/dgraph-io/badger/v4"

type badgerTxn = badger.Txn
