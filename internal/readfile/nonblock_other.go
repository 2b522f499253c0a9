//go:build !unix

package readfile

const nonBlock = 0
