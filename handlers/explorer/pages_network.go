package explorer

// networkPages are the pages about the whole node: home, search, status.
func (s *server) networkPages() []page {
	return []page{
		{name: "home", path: "/", summary: "home: the followed chains, latest blocks and transactions, activity", handler: s.serveHome},
	}
}
