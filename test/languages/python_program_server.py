"""The language runtime the CLI suite connects the real `pulumi` CLI to (`--client`) for a Python program.

pulumi's own LanguageServer (the one its Automation API serves inline programs with) running the program's
__main__.py anew on every Run the engine asks for. The Python language host (pulumi-language-python) would run it in a
python process of its own; its Go module is not served by the module proxy here, so this stands in for that one job.

Usage: python python_program_server.py <programDir>; prints the port it serves on.
"""
import os
import runpy
import sys
from concurrent import futures

import grpc
from pulumi.automation._server import LanguageServer
from pulumi.runtime.proto import language_pb2_grpc

program_dir = os.path.realpath(sys.argv[1])
sys.path.insert(0, program_dir)


def program():
    runpy.run_path(os.path.join(program_dir, "__main__.py"), run_name="__main__")


options = [("grpc.max_receive_message_length", 400 * 1024 * 1024), ("grpc.max_send_message_length", 400 * 1024 * 1024)]
server = grpc.server(futures.ThreadPoolExecutor(max_workers=4), options=options)
language_pb2_grpc.add_LanguageRuntimeServicer_to_server(LanguageServer(program), server)
port = server.add_insecure_port("127.0.0.1:0")
server.start()
print(port, flush=True)
server.wait_for_termination()
