package osbox

import (
	"context"
	"io"
	"net"
)

// forward pipes each TCP connection on ln to the proxy's Unix socket.
// TODO(lead): replace with netproxy.Forward once it lands.
func forward(ctx context.Context, ln net.Listener, sock string) {
	go func() { <-ctx.Done(); ln.Close() }()
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			u, err := net.Dial("unix", sock)
			if err != nil {
				return
			}
			defer u.Close()
			go func() { io.Copy(u, c); u.(*net.UnixConn).CloseWrite() }()
			io.Copy(c, u)
		}()
	}
}
