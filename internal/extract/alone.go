package extract

// StandsAlone reports whether an entry's text can be read on its own (see
// standsAlone): the pipeline keeps such a wording when it merges two
// memories of one fact.
func StandsAlone(typ, text string) bool { return standsAlone(Type(typ), text) }
