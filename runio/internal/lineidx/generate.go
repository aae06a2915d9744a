package lineidx

//go:generate go run ./asm -out lineidx_amd64.s -stubs stub_amd64.go -pkg lineidx
