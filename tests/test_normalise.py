from verified_docs.verify.normalise import normalise


def test_volatile_values_are_replaced() -> None:
    text = "id pnd-19a3f-12 at http://127.0.0.1:43121/v1 took 12ms and 0.5 s in the 1990s, key sk-mock-00ff"
    assert (
        normalise(text)
        == "id pnd-<id> at http://127.0.0.1:<port>/v1 took <duration> and <duration> in the 1990s, key sk-mock-<key>"
    )


def test_stable_text_is_untouched() -> None:
    text = "deployed to staging, approved by dana (call_1)"
    assert normalise(text) == text


def test_uuids_are_replaced() -> None:
    text = "A2A task 5ae034e0-c343-437b-afd1-ca5f23a20bff timed out after 500ms (state=input-required)"
    assert normalise(text) == "A2A task <uuid> timed out after <duration> (state=input-required)"


def test_a_work_folder_is_replaced_whatever_tmpdir_is() -> None:
    text = (
        'File "/tmp/verified-docs-run-4wo25z2x/verified-docs-k3j9/main.py", line 3; '
        "cwd /var/ci/tmp/verified-docs-run-ab12/verified-docs-xy/w and /tmp/verified-docs-q1/x"
    )
    assert normalise(text) == 'File "<workdir>/main.py", line 3; cwd <workdir>/w and <workdir>/x'
