package metric

//go:generate go run ../gen -out .
