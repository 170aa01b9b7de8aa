// The failures of the running test case, for LANESCOPE_SKIP (tests/skip.hpp):
// a Catch2 listener clears the mark when a case starts and sets it on any
// failed assertion.
#define CATCH_CONFIG_EXTERNAL_INTERFACES
#include "skip.hpp"

namespace {

bool g_case_failed = false;

struct FailureListener : Catch::TestEventListenerBase {
    using TestEventListenerBase::TestEventListenerBase;
    void testCaseStarting(const Catch::TestCaseInfo& info) override {
        g_case_failed = false;
        TestEventListenerBase::testCaseStarting(info);
    }
    bool assertionEnded(const Catch::AssertionStats& stats) override {
        if (!stats.assertionResult.isOk()) g_case_failed = true;
        return TestEventListenerBase::assertionEnded(stats);
    }
};

}  // namespace

CATCH_REGISTER_LISTENER(FailureListener)

bool lanescope_test::current_case_failed() { return g_case_failed; }
