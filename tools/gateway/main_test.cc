// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// ipsum-gateway's command line: a usage or setup error is one line on
// stderr, naming what is wrong, with exit status 2 (usage) or 1 (setup).
// Needs no privilege: every case fails before a device is opened, or
// opening one is the failure.

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace {

struct Result {
  int status = -1;
  std::string first_line;
};

Result RunGateway(std::vector<std::string> args) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* ws = std::getenv("TEST_WORKSPACE");
  std::string path = std::string(srcdir ? srcdir : ".") + "/" +
                     (ws ? ws : "ipsum") + "/tools/gateway/ipsum-gateway";
  int err[2];
  if (pipe(err) != 0) return {};
  const pid_t pid = fork();
  if (pid == 0) {
    std::vector<char*> argv = {path.data()};
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    dup2(err[1], 2);
    close(err[0]);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(err[1]);
  std::string text;
  char buf[4096];
  ssize_t n;
  while ((n = read(err[0], buf, sizeof(buf))) > 0) text.append(buf, n);
  close(err[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  Result r;
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.first_line = text.substr(0, text.find('\n'));
  return r;
}

TEST(GatewayMainTest, UsageErrorsNameTheBadValue) {
  struct Case {
    std::vector<std::string> args;
    std::string line;
  };
  const std::vector<Case> cases = {
      {{"--link=a"}, "ipsum-gateway: at least two --link are needed"},
      {{"--link=a,addr=10.0.0.300/24", "--link=b"},
       "ipsum-gateway: bad IPv4 address '10.0.0.300'"},
      {{"--link=a", "--link=b", "--route=10.0.0.0/33,dev=a"},
       "ipsum-gateway: bad IPv4 prefix length in '10.0.0.0/33'"},
      {{"--link=a", "--link=b", "--route=fd00::/64,dev=c"},
       "ipsum-gateway: --route: no --link c"},
      {{"--link=a", "--link=b", "--route=fd00::/64,dev=a,via=10.0.0.1"},
       "ipsum-gateway: bad IPv6 address '10.0.0.1'"},
      {{"--link=a,offload=csum+lro", "--link=b"},
       "ipsum-gateway: unknown offload 'lro'"},
      {{"--link=a", "--link=b", "--snat=10.0.0.0/24,dev=b"},
       "ipsum-gateway: --snat: no to= and no IPv4 address on the device"},
      {{"--link=a,mac=01:00:00:00:00:01,tap", "--link=b"},
       "ipsum-gateway: interface a: MAC 01:00:00:00:00:01 is multicast"},
      {{"--link=a", "--link=b", "--frobnicate=1"},
       "ipsum-gateway: unknown flag '--frobnicate'"},
      {{"--link=a", "--link=b", "--snat-max=lots"},
       "ipsum-gateway: --snat-max: not a number: 'lots'"},
      {{"--link=a", "--link=b", "--snat-max=64"},
       "ipsum-gateway: --snat-max: without --snat"},
      {{"--link=a,txqueuelen=0", "--link=b"},
       "ipsum-gateway: --link txqueuelen: 1..1048576"},
      {{"--copy", "--link=a", "--link=b", "--route=0.0.0.0/0,dev=b"},
       "ipsum-gateway: --copy takes exactly two --link and no --route or "
       "--snat"},
      {{"--copy", "--link=a", "--link=b", "--link=c"},
       "ipsum-gateway: --copy takes exactly two --link and no --route or "
       "--snat"},
  };
  for (const Case& c : cases) {
    const Result r = RunGateway(c.args);
    EXPECT_EQ(r.status, 2) << c.line;
    EXPECT_EQ(r.first_line, c.line);
  }
}

TEST(GatewayMainTest, SetupErrorsAreOneLine) {
  const Result r = RunGateway({"--link=a,netns=/nonexistent/ns", "--link=b"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.first_line,
            "ipsum-gateway: cannot open network namespace /nonexistent/ns: No "
            "such file or directory");
}

}  // namespace
