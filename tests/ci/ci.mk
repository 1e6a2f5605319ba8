# check-ci-integrations: the GitHub Action (action.yml), its example
# workflow (docs/ci/github-workflow.yml), the GitLab template
# (docs/ci/gitlab-ci.yml) and the pre-commit hook (.pre-commit-hooks.yaml)
# checked against their platforms' rules offline, and run the way their
# runners run them (docs/ci.md). python3-yaml reads them; pre-commit runs
# the hook for real.
.PHONY: check-ci-integrations
check-ci-integrations: $(TRACECHECK)
	@python3 tests/ci/check-ci-integrations --tracecheck $(TRACECHECK)

CHECK_TARGETS += check-ci-integrations
