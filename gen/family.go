package main

// familyFiles returns the generated files of the other ranking metrics for
// variant v (none yet).
func familyFiles(v variant) ([]file, error) { return nil, nil }
