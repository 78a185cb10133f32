"""The jupyter_kernel_test conformance suite, with every sample it supports."""
import jupyter_kernel_test as jkt


class SandboxKernelTests(jkt.KernelTests):
    kernel_name = "sandbox"
    language_name = "bash"
    file_extension = ".sh"

    code_hello_world = "echo 'hello, world'"
    code_stderr = "echo 'oops' >&2"
    completion_samples = [
        {"text": "whoam", "matches": {"whoami"}},
        {"text": "echo $HOM", "matches": {"$HOME"}},
        {"text": "ls /et", "matches": {"/etc/"}},
        {"text": "%lim", "matches": {"%limits"}},
        {"text": "%%j", "matches": {"%%js"}},
    ]
    complete_code_samples = ["echo hi", "for i in 1 2; do echo $i; done", "%limits", "x=1\ny=2"]
    incomplete_code_samples = ["echo 'unterminated", "if true; then", "echo a |", "f() {",
                               "for i in 1 2; do", "echo a \\", "cat <<EOF\nx"]
    invalid_code_samples = ["fi", "done", "%%ruby\nputs 1"]
    code_page_something = "%help ls"
    code_generate_error = "false"
    code_execute_result = [{"code": "%limits", "mime": "text/html"}]
    code_display_data = [
        {"code": "display --html '<b>bold</b>'", "mime": "text/html"},
        {"code": "display --markdown '# Title'", "mime": "text/html"},  # rendered and sanitised
        {"code": "display --json '{\"a\": 1}'", "mime": "application/json"},
        {"code": "echo '<svg xmlns=\"http://www.w3.org/2000/svg\"/>' > s.svg; display s.svg",
         "mime": "image/svg+xml"},
    ]
    code_history_pattern = "%lim*"
    supported_history_operations = ("tail", "range", "search")
    code_inspect_sample = "ls"
    code_clear_output = "echo soon gone; display --clear"


class SandboxKernelWelcome(jkt.IopubWelcomeTests):
    kernel_name = "sandbox"
    support_iopub_welcome = True
