"""Serve Keystone's public WSGI application on a free loopback port (tests only).

Keystone reads its configuration from OS_KEYSTONE_CONFIG_DIR. The chosen port is written to the
file named by the first argument once the socket is bound, so the caller never races for a port.
"""
import os
import sys
import wsgiref.simple_server as simple_server

from keystone.server.wsgi import initialize_public_application


class Server(simple_server.WSGIServer):
    # One request at a time (SQLite), so parallel test workers queue: let more of them wait.
    request_queue_size = 64


class QuietHandler(simple_server.WSGIRequestHandler):
    # Keystone logs every request itself; the default handler would repeat each one on stderr.
    def log_message(self, format, *args):
        pass


def main():
    # Keystone parses the command line itself, so the port file's name is taken off it.
    port_file = sys.argv.pop(1)
    application = initialize_public_application()
    server = simple_server.make_server(
        '127.0.0.1', 0, application, server_class=Server, handler_class=QuietHandler)
    # Written aside and renamed, so a reader never sees half a number.
    with open(port_file + '.partial', 'w') as f:
        f.write(str(server.server_port))
    os.replace(port_file + '.partial', port_file)
    server.serve_forever()


if __name__ == '__main__':
    main()
