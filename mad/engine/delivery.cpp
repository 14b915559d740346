#include "mad/engine/delivery.h"

#include <cmath>
#include <utility>

namespace mad {

Delivery::Delivery(const std::vector<PairJob>& jobs, const EngineOptions& options,
                   const std::function<void(const PairOutcome&)>& on_done, EngineReport& report)
    : jobs_(jobs),
      options_(options),
      on_done_(on_done),
      report_(report),
      own_bar_(options.shared_progress ? 0 : jobs.size(), "pairs/s",
               options.shared_progress ? nullptr : options.progress),
      bar_(options.shared_progress ? *options.shared_progress : own_bar_) {}

void Delivery::accept(std::size_t position, BatchScorer::Finished finished, int worker) {
  if (!options_.in_order) {
    emit(position, finished, worker);
    return;
  }
  waiting_.emplace(position, Waiting{std::move(finished), worker});
  for (auto it = waiting_.begin(); it != waiting_.end() && it->first == next_;
       it = waiting_.erase(it), ++next_)
    emit(it->first, it->second.finished, it->second.worker);
}

void Delivery::finish() {
  if (&bar_ == &own_bar_) bar_.finish();
}

void Delivery::emit(std::size_t position, const BatchScorer::Finished& f, int worker) {
  PairOutcome o;
  o.id = jobs_[position].id;
  o.worker = worker;
  o.error = f.error;
  if (f.ok) o.result = &f.result;
  if (o.result && options_.non_finite_fails && !std::isfinite(o.result->mad)) {
    o.result = nullptr;
    o.error = "MAD is not finite";
  }
  ++(o.result ? report_.scored : report_.failed);
  if (!o.result) bar_.clear();
  on_done_(o);
  bar_.tick(o.result == nullptr);
}

}  // namespace mad
