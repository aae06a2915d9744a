package vec

//go:generate go run ./asm -out vec_amd64.s -stubs stub_amd64.go -pkg vec
