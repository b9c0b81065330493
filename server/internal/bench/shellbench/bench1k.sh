cd server && go vet ./... && go test -count=1 -run 'TestAnalyze|TestPolicy' ./internal/... 2>&1 | tee test.log | tail -n 40
git status --short | head -20; git diff --stat HEAD~1 | sort -k3 -rn | head
find . -name '*.go' -not -path './vendor/*' -exec grep -l 'TODO' {} + | xargs -r wc -l | sort -n
for f in $(git ls-files '*.ts'); do if [ -s "$f" ]; then echo "$f: $(wc -l < "$f")"; fi; done
npm run type-check && npm test -- --reporter=dot 2>&1 | grep -E 'passed|failed' || echo "tests failed"
rm -rf dist node_modules/.cache && mkdir -p dist && env NODE_ENV=production timeout 300 npm run build
docker ps --format '{{.Names}}' | while read -r c; do docker logs --tail 5 "$c" 2>&1 | sed -n '1,5p'; done
bash -c 'git log --oneline -5 && git branch --show-current' && echo "done: $(date +%s)"
cat <<'EOF' | grep -v '^#' | sort -u
# generated list
alpha
beta
EOF
awk -F: '{print $1}' /etc/passwd | head -3; ls -la ~/ | wc -l; rg -n --type go 'func main' . | cut -c1-120
ls -la ~/ | wc -l; echo "padding to reach one kilobyte of realistic shell text"
