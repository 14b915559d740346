// The CUDA backend's host logic (mad/backends/slot_scheduler.h) driven by fake slots (fake_slots.h):
// its rules one at a time. The randomized schedules through the batch scorer are in
// batch_engine_test.cpp.
#include <gtest/gtest.h>

#include "tests/engine/fake_slots.h"

namespace mad::test {
namespace {

PairInput input_of(const GrayImage& g) {
  return pair_input(g);
}

struct Pair {
  GrayImage ref, dst;
  Pair(int w, int h, int number) : ref(numbered_image(w, h, 0, 50)), dst(numbered_image(w, h, number)) {}
};

std::uint64_t submit(SlotScheduler& s, const Pair& p) {
  return s.submit(input_of(p.ref), input_of(p.dst), true, false);
}

TEST(SlotScheduler, ShapeWithAPairInFlightIsNeverEvicted) {
  FakeGpu gpu;
  auto s = fake_scheduler(gpu, {4, 2, SIZE_MAX});
  const Pair a(40, 40, 1), b(41, 40, 2), c(42, 40, 3);
  const auto ta = submit(*s, a);
  const auto tb = submit(*s, b);
  // Two shapes alive, both busy, at most two kept: a third shape must wait.
  EXPECT_FALSE(s->can_submit(42, 40));
  EXPECT_EQ(s->shapes_alive(), 2u);
  EXPECT_EQ(s->collect(ta).d_detect, 1);
  // 40x40 is idle now: it makes way for the new shape, 41x40 (in flight) stays.
  ASSERT_TRUE(s->can_submit(42, 40));
  const auto tc = submit(*s, c);
  EXPECT_EQ(s->slots_built(40, 40), 0);
  EXPECT_EQ(s->slots_built(41, 40), 1);
  EXPECT_EQ(s->collect(tb).d_detect, 2);
  EXPECT_EQ(s->collect(tc).d_detect, 3);
  EXPECT_EQ(gpu.busy_submits, 0);
}

TEST(SlotScheduler, WaitsForACollectRatherThanOverAllocate) {
  FakeGpu gpu;
  // Room for two 50x50 slots, or one 40x40 slot and one 50x50 slot, not all three.
  const std::size_t budget = gpu.cost(50, 50).total(2);
  ASSERT_LE(gpu.cost(40, 40).first + gpu.cost(50, 50).first, budget);
  auto s = fake_scheduler(gpu, {4, 3, budget});
  const Pair a(40, 40, 1), b(50, 50, 2), b2(50, 50, 3);
  const auto ta = submit(*s, a);
  const auto tb = submit(*s, b);
  // A second 50x50 slot does not fit while 40x40 is busy: wait, do not allocate.
  EXPECT_FALSE(s->can_submit(50, 50));
  EXPECT_LE(gpu.live_bytes, budget);
  s->collect(ta);
  // 40x40 idle: evicted for the second 50x50 slot.
  ASSERT_TRUE(s->can_submit(50, 50));
  const auto tb2 = submit(*s, b2);
  EXPECT_EQ(s->slots_built(50, 50), 2);
  EXPECT_EQ(s->slots_built(40, 40), 0);
  EXPECT_LE(gpu.peak_live_bytes, budget);
  EXPECT_EQ(s->collect(tb).d_detect, 2);
  EXPECT_EQ(s->collect(tb2).d_detect, 3);
}

TEST(SlotScheduler, DeviceBytesIsThePeakTheSlotsHeldNotWhatTheBudgetCounted) {
  FakeGpu gpu;
  gpu.held_fraction = 0.5;  // the model counts twice what a slot holds
  auto s = fake_scheduler(gpu, {2, 2, SIZE_MAX});
  const Pair a(40, 40, 1), a2(40, 40, 2), b(64, 48, 3);
  const auto t1 = submit(*s, a);
  const auto t2 = submit(*s, a2);  // a second 40x40 slot: the bank is not counted again
  s->collect(t1);
  s->collect(t2);
  s->collect(submit(*s, b));
  EXPECT_EQ(s->device_bytes(), gpu.peak_live_bytes);
  EXPECT_EQ(s->peak_used_bytes(), gpu.cost(40, 40).total(2) + gpu.cost(64, 48).first);
  EXPECT_LT(s->device_bytes(), s->peak_used_bytes());
}

TEST(SlotScheduler, CapacityFollowsTheBudgetAndTooLargeIsRefused) {
  FakeGpu gpu;
  const SlotCost c = gpu.cost(64, 64);
  auto s = fake_scheduler(gpu, {4, 3, c.total(2)});
  EXPECT_EQ(s->capacity(64, 64), 2);   // two slots fit, not three
  EXPECT_EQ(s->capacity(40, 40), 4);   // small shapes get the full count
  EXPECT_EQ(s->shapes_alive(), 0u);    // asking plans nothing
  try {
    s->can_submit(200, 200);
    FAIL() << "a shape larger than the budget was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("200x200"), std::string::npos) << e.what();
  }
}

TEST(SlotScheduler, NeverFullWithNothingInFlight) {
  FakeGpu gpu;
  const std::size_t budget = gpu.cost(90, 90).total(2);
  auto s = fake_scheduler(gpu, {4, 3, budget});
  int number = 0;
  // Shapes of every size up to the largest that fits, in a scrambled order, one at a time.
  for (int i = 0; i < 60; ++i) {
    const int w = 34 + (i * 37) % 57, h = 34 + (i * 13) % 57;
    ASSERT_TRUE(s->can_submit(w, h)) << w << "x" << h;
    const Pair p(w, h, ++number);
    EXPECT_EQ(s->collect(submit(*s, p)).d_detect, number);
    ASSERT_LE(gpu.live_bytes, budget);
  }
  EXPECT_LE(s->shapes_alive(), 3u);
}

TEST(SlotScheduler, FailedConstructionLeavesTheListsAsTheyWere) {
  FakeGpu gpu;
  gpu.fault = [](Where w, int n) { return w == Where::Make && n == 1 ? Fault::Gpu : Fault::None; };
  auto s = fake_scheduler(gpu, {4, 3, SIZE_MAX});
  const Pair a(40, 40, 1), b(40, 40, 2), c(40, 40, 3);
  const auto ta = submit(*s, a);  // make #0: slot 0
  EXPECT_THROW(submit(*s, b), GpuError);  // make #1 fails: no slot 1, no ticket
  EXPECT_EQ(s->slots_built(40, 40), 1);
  EXPECT_EQ(s->in_flight(), 1u);
  const auto tc = submit(*s, c);  // make #2: slot 1, in its place
  EXPECT_EQ(s->slots_built(40, 40), 2);
  EXPECT_EQ(s->collect(ta).d_detect, 1);
  EXPECT_EQ(s->collect(tc).d_detect, 3);
  // And a new shape whose first slot fails is not left half-planned.
  gpu.fault = [](Where w, int) { return w == Where::Make ? Fault::Gpu : Fault::None; };
  const Pair d(45, 45, 4);
  EXPECT_THROW(submit(*s, d), GpuError);
  EXPECT_EQ(s->slots_built(45, 45), 0);
  EXPECT_EQ(s->shapes_alive(), 1u);
}

TEST(SlotScheduler, FailedSubmitLeavesTheSlotIdleAndFailedCollectFinishesTheTicket) {
  FakeGpu gpu;
  gpu.fault = [](Where w, int n) {
    return (w == Where::Submit && n == 2) || (w == Where::Collect && n == 3) ? Fault::Input
                                                                            : Fault::None;
  };
  auto s = fake_scheduler(gpu, {1, 3, SIZE_MAX});  // one slot: every pair reuses it
  const Pair a(40, 40, 1), b(40, 40, 2), c(40, 40, 3), d(40, 40, 4);
  EXPECT_EQ(s->collect(submit(*s, a)).d_detect, 1);
  EXPECT_THROW(submit(*s, b), InputError);
  EXPECT_EQ(s->in_flight(), 0u);
  const auto tc = submit(*s, c);  // the slot was left idle, not busy
  EXPECT_THROW(s->collect(tc), InputError);
  EXPECT_EQ(s->in_flight(), 0u);  // the failed ticket is finished
  EXPECT_EQ(s->collect(submit(*s, d)).d_detect, 4);
  EXPECT_EQ(gpu.busy_submits, 0);
  EXPECT_EQ(s->slots_built(40, 40), 1);
}

TEST(SlotScheduler, MisuseIsAnInternalErrorWithExitOne) {
  FakeGpu gpu;
  auto s = fake_scheduler(gpu, {1, 3, SIZE_MAX});
  const Pair a(40, 40, 1), b(40, 40, 2);
  const auto ta = submit(*s, a);
  try {
    submit(*s, b);  // no room: the caller had to ask can_submit
    FAIL() << "submit without room was accepted";
  } catch (const InternalError& e) {
    EXPECT_EQ(e.exit_code(), kExitFailure);
    EXPECT_NE(std::string(e.what()).find("please report"), std::string::npos);
  }
  EXPECT_THROW(s->collect(ta + 1), InternalError);  // out of order
  EXPECT_EQ(s->collect(ta).d_detect, 1);
  EXPECT_THROW(s->collect(ta), InternalError);  // twice
}

}  // namespace
}  // namespace mad::test
