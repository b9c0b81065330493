package store

func crashChild() {}
