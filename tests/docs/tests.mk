# The documentation stands on its own: no link or named path that leaves the
# clone or names a file that is not there (tests/docs/check_links.sh).
TESTS += docs_links
TEST_CMD.docs_links := tests/docs/check_links.sh
