#include "report.hpp"

#include <algorithm>
#include <string>

namespace zr::cli {

namespace {

constexpr const char* kSchema = "ze_reduce/run/1";

struct Spread {
  std::uint64_t median = 0, min = 0, max = 0;
};

template <typename Member>
Spread spread_of(const RunOutcome& outcome, Member member) {
  std::vector<std::uint64_t> values;
  for (const auto& t : outcome.timings) values.push_back(t.*member);
  if (values.empty()) return {};
  return {median(values), *std::min_element(values.begin(), values.end()), *std::max_element(values.begin(), values.end())};
}

bool timestamps_valid(const RunOutcome& outcome) {
  return std::all_of(outcome.timings.begin(), outcome.timings.end(), [](const auto& t) { return t.timestamps_valid; });
}

// Bytes of input per second, by the kernels' time when the device gives timestamps.
std::optional<double> gb_per_s(std::uint64_t bytes, std::uint64_t ns) {
  if (ns == 0) return std::nullopt;
  return static_cast<double>(bytes) / static_cast<double>(ns);
}

std::string fill_name(Fill fill) { return fill == Fill::pattern ? "pattern" : "random"; }

nlohmann::json spread_json(const Spread& s) { return {{"median", s.median}, {"min", s.min}, {"max", s.max}}; }

nlohmann::json nullable(const std::optional<double>& value) { return value ? nlohmann::json(*value) : nlohmann::json(); }

nlohmann::json moments_json(const MomentsOutcome& m) {
  return {{"count", m.count},      {"mean", m.mean.to_string()},         {"m2", m.m2.to_string()},
          {"ddof", m.ddof},        {"variance", m.variance.to_string()}, {"stddev", m.stddev.to_string()}};
}

std::string moments_text(const MomentsOutcome& m) {
  return "mean " + m.mean.to_string() + ", variance " + m.variance.to_string() + " (ddof " + std::to_string(m.ddof) +
         "), stddev " + m.stddev.to_string() + ", count " + std::to_string(m.count) + ", m2 " + m.m2.to_string();
}

}  // namespace

core::DataType result_type(core::Op op, core::DataType element) {
  if (core::is_moments_op(op)) return core::moments_accumulator(op);
  if (core::is_transform_op(op)) return core::transform_result_type(op, element);
  return element;
}

nlohmann::json to_json(const Report& r) {
  const auto& o = r.options;
  const auto& w = r.workload;
  const auto& outcome = r.outcome;
  nlohmann::json doc;
  doc["schema"] = kSchema;
  doc["version"] = std::string(zr::version());
  doc["device"] = {{"index", r.device_index},
                   {"name", r.device.name()},
                   {"backend", std::string(to_string(r.device.get_backend()))},
                   {"kind", std::string(to_string(r.device.kind()))},
                   {"driver_version", r.device.driver_version()}};
  doc["request"] = {{"op", std::string(core::name(o.op))},
                    {"type", std::string(core::name(w.type))},
                    {"n", w.n},
                    {"bytes", w.data.size()},
                    {"columns", o.columns},
                    {"deterministic", o.deterministic},
                    {"reproducible", o.reproducible},
                    // argmin/argmax, transform-reductions and means never read their variable: true whether or not
                    // --init-to-identity was given.
                    {"initialize_to_identity", o.initialize_to_identity || core::is_arg_op(o.op) ||
                                                   core::is_transform_op(o.op) || core::is_moments_op(o.op)},
                    {"strategy", o.strategy ? nlohmann::json(std::string(to_string(*o.strategy))) : nlohmann::json()},
                    {"identity", outcome.identity.to_string()},
                    {"initial", outcome.initial ? nlohmann::json(outcome.initial->to_string()) : nlohmann::json()},
                    {"result_type", std::string(core::name(result_type(o.op, w.type)))},
                    {"axis", o.axis ? nlohmann::json(*o.axis) : nlohmann::json()},
                    {"segments", r.segments ? nlohmann::json(*r.segments) : nlohmann::json()},
                    {"result_shape", r.result_shape},
                    {"output", o.output_path.empty() ? nlohmann::json() : nlohmann::json(o.output_path)}};
  if (outcome.equal_to) doc["request"]["equal_to"] = outcome.equal_to->to_string();  // count_equal only
  nlohmann::json input = {{"source", w.source}};
  input["format"] = w.format.empty() ? nlohmann::json() : nlohmann::json(w.format);
  input["path"] = w.path.empty() ? nlohmann::json() : nlohmann::json(w.path);
  input["fill"] = w.source == "generated" ? nlohmann::json(fill_name(o.fill)) : nlohmann::json();
  input["seed"] = w.source == "generated" && o.fill == Fill::random ? nlohmann::json(o.seed) : nlohmann::json();
  input["shape"] = w.format == "npy" ? nlohmann::json(w.shape) : nlohmann::json();
  input["byte_order"] = w.source == "generated" ? nlohmann::json() : nlohmann::json(byte_order_name(w.byte_order));
  doc["input"] = input;
  doc["plans"] = nlohmann::json::array();
  for (const auto& plan : outcome.plans)
    doc["plans"].push_back({{"strategy", std::string(to_string(plan.strategy))},
                            {"reason", plan.reason},
                            {"description", plan.description},
                            {"combine_depth", plan.combine_depth}});
  doc["result"] = nlohmann::json::array();
  for (const auto& value : outcome.results) doc["result"].push_back(value.to_string());
  if (outcome.index) doc["index"] = *outcome.index;  // argmin/argmax only: the schema requires it there alone
  if (!outcome.indices.empty()) doc["index"] = outcome.indices;  // per segment, one each
  if (outcome.moments) doc["moments"] = moments_json(*outcome.moments);  // mean_var only, likewise
  if (!outcome.segment_moments.empty()) {  // mean_var per segment: one each
    doc["moments"] = nlohmann::json::array();
    for (const auto& m : outcome.segment_moments) doc["moments"].push_back(moments_json(m));
  }
  if (r.verification) {
    nlohmann::json columns = nlohmann::json::array();
    for (const auto& c : r.verification->columns) {
      nlohmann::json column = {{"reference", c.reference.value.to_string()},
                               {"tolerance", c.reference.tolerance},
                               {"agrees", c.agrees},
                               {"why", c.why}};
      if (c.index) column["index"] = *c.index;
      if (c.moments)
        column["moments"] = {{"count", c.moments->count},
                             {"m2", c.moments->m2.to_string()},
                             {"m2_tolerance", c.moments->m2_tolerance}};
      columns.push_back(column);
    }
    doc["verification"] = {{"passed", r.verification->passed()}, {"columns", columns}};
  } else {
    doc["verification"] = nullptr;
  }
  const bool valid = timestamps_valid(outcome);
  const Spread kernel = spread_of(outcome, &IterationTiming::kernel_ns);
  nlohmann::json passes = nlohmann::json::array();
  for (const auto& p : outcome.last_passes)
    passes.push_back({{"kind", p.what == zr::pass_profile::kind::kernel ? "kernel" : "copy"},
                      {"label", p.label},
                      {"kernel", p.kernel},
                      {"duration_ns", p.duration_ns()}});
  doc["timing"] = {{"iterations", o.iterations},
                   {"warmup", o.warmup},
                   {"timestamps_valid", valid},
                   {"input_on_device", outcome.input_on_device},
                   {"upload_ns", outcome.upload_ns},
                   {"kernel_ns", spread_json(kernel)},
                   {"wall_ns", spread_json(spread_of(outcome, &IterationTiming::wall_ns))},
                   {"copy_ns", spread_json(spread_of(outcome, &IterationTiming::copy_ns))},
                   {"passes", passes},
                   {"gb_per_s", nullable(valid ? gb_per_s(w.data.size(), kernel.median) : std::nullopt)}};
  if (r.probe_ns && valid && kernel.median > 0) {
    const auto probe = gb_per_s(w.data.size(), *r.probe_ns);
    doc["bandwidth"] = {{"probe", "bit_or over the same bytes"},
                        {"probe_ns", *r.probe_ns},
                        {"probe_gb_per_s", nullable(probe)},
                        {"ratio", static_cast<double>(*r.probe_ns) / static_cast<double>(kernel.median)}};
  } else {
    doc["bandwidth"] = nullptr;
  }
  return doc;
}

void print_text(const Report& r, std::FILE* out) {
  const auto& o = r.options;
  const auto& w = r.workload;
  const auto& outcome = r.outcome;
  // argmin/argmax: "VALUE at index I" (-q: "VALUE I", two fields for scripts).
  const auto results = [&] {
    // mean_var: "mean M, variance V (ddof D), ..." (-q: "MEAN VARIANCE", two fields for scripts).
    if (outcome.moments)
      return o.verbosity < 0 ? outcome.moments->mean.to_string() + " " + outcome.moments->variance.to_string()
                             : moments_text(*outcome.moments);
    if (outcome.index)
      return outcome.results.at(0).to_string() + (o.verbosity < 0 ? " " : " at index ") + std::to_string(*outcome.index);
    // Many results (segments, long axes) print their first and last few; --json and --output have them all.
    constexpr std::size_t kShown = 8;
    const std::size_t count = outcome.results.size();
    std::string text;
    for (std::size_t i = 0; i < count; ++i) {
      if (count > 2 * kShown && i == kShown) {
        text += ", ... (" + std::to_string(count - 2 * kShown) + " more)";
        i = count - kShown - 1;
        continue;
      }
      if (i) text += ", ";
      text += outcome.results[i].to_string();
      // mean_var per segment: "MEAN (variance V)" (-q: "MEAN V").
      if (i < outcome.segment_moments.size())
        text += (o.verbosity < 0 ? " " : " (variance ") + outcome.segment_moments[i].variance.to_string() +
                (o.verbosity < 0 ? "" : ")");
      if (i < outcome.indices.size()) text += (o.verbosity < 0 ? " " : " at ") + std::to_string(outcome.indices[i]);
    }
    return count > 1 ? "[" + text + "]" : text;
  }();
  if (o.verbosity < 0) {
    std::fprintf(out, "%s\n", results.c_str());
    return;
  }
  std::fprintf(out, "device    [%zu] %s\n", r.device_index, r.device.description().c_str());
  std::string input = w.source == "generated" ? "generated, --fill " + fill_name(o.fill) +
                                                    (o.fill == Fill::random ? ", seed " + std::to_string(o.seed) : "")
                                              : w.path + " (" + w.format +
                                                    (w.byte_order == ByteOrder::big ? ", big-endian" : "") + ")";
  const std::string op = std::string(core::name(o.op)) +
                         (outcome.equal_to ? " (equal to " + outcome.equal_to->to_string() + ")" : std::string());
  const core::DataType written = result_type(o.op, w.type);
  const std::string into = written != w.type ? ", into " + std::string(core::name(written)) : std::string();
  const std::string layout = r.segments ? (o.axis ? " along axis " + std::to_string(*o.axis) + " (" +
                                                        std::to_string(*r.segments) + " segments)"
                                                  : " in " + std::to_string(*r.segments) + " segments")
                             : o.columns > 1 ? " as rows of " + std::to_string(o.columns)
                                             : std::string();
  std::fprintf(out, "reduce    %s over %llu x %s%s%s (%s)\n", op.c_str(), static_cast<unsigned long long>(w.n),
               std::string(core::name(w.type)).c_str(), layout.c_str(), into.c_str(), input.c_str());
  for (const auto& plan : outcome.plans) {
    std::fprintf(out, "strategy  %s: %s\n", std::string(to_string(plan.strategy)).c_str(), plan.reason.c_str());
    if (o.verbosity > 0) std::fprintf(out, "%s", plan.description.c_str());
  }
  std::fprintf(out, "result    %s\n", results.c_str());
  if (r.verification && r.verification->columns.size() > 16) {
    // Many results: a line for the whole check, and one for each of the first mismatches.
    std::size_t mismatches = 0;
    for (std::size_t c = 0; c < r.verification->columns.size(); ++c) {
      const auto& check = r.verification->columns[c];
      if (check.agrees || ++mismatches > 8) continue;
      std::fprintf(out, "host      %s %zu: %s MISMATCH: %s\n", r.segments ? "segment" : "column", c,
                   check.reference.value.to_string().c_str(), check.why.c_str());
    }
    std::fprintf(out, "host      %zu of %zu results verified%s\n", r.verification->columns.size() - mismatches,
                 r.verification->columns.size(), mismatches ? "" : " (exact, or within each one's error bound)");
  } else if (r.verification) {
    for (std::size_t c = 0; c < r.verification->columns.size(); ++c) {
      const auto& check = r.verification->columns[c];
      const std::string column = r.verification->columns.size() > 1
                                     ? (r.segments ? "segment " : "column ") + std::to_string(c) + ": "
                                     : "";
      char bound[64];
      std::snprintf(bound, sizeof bound, "(verified, within the error bound %.3g)", check.reference.tolerance);
      const std::string verdict = !check.agrees                        ? "MISMATCH: " + check.why
                                  : check.reference.tolerance > 0 ? std::string(bound)
                                                                  : std::string("(verified, exact)");
      const std::string at = check.index ? " at index " + std::to_string(*check.index) : "";
      if (check.moments) {  // mean_var: each quantity with its own bound
        std::fprintf(out, "host      mean %s (bound %.3g), m2 %s (bound %.3g), count %llu %s\n",
                     check.reference.value.to_string().c_str(), check.reference.tolerance,
                     check.moments->m2.to_string().c_str(), check.moments->m2_tolerance,
                     static_cast<unsigned long long>(check.moments->count),
                     check.agrees ? "(verified, within the bounds)" : verdict.c_str());
        continue;
      }
      std::fprintf(out, "host      %s%s%s %s\n", column.c_str(), check.reference.value.to_string().c_str(), at.c_str(),
                   verdict.c_str());
    }
  }
  if (outcome.timings.empty()) return;
  const bool valid = timestamps_valid(outcome);
  const Spread kernel = spread_of(outcome, &IterationTiming::kernel_ns);
  const Spread wall = spread_of(outcome, &IterationTiming::wall_ns);
  for (const auto& pass : outcome.last_passes)
    std::fprintf(out, "  %-6s %-34s %-34s %12.1f us\n", pass.what == zr::pass_profile::kind::kernel ? "kernel" : "copy",
                 pass.label.c_str(), pass.kernel.c_str(), pass.duration_ns() * 1e-3);
  if (o.verbosity > 0)
    for (std::size_t i = 0; i < outcome.timings.size(); ++i) {
      const auto& t = outcome.timings[i];
      std::fprintf(out, "  run %-4zu kernels %.1f us, copies %.1f us, wall %.1f us\n", i + 1, t.kernel_ns * 1e-3,
                   t.copy_ns * 1e-3, t.wall_ns * 1e-3);
    }
  if (valid)
    std::fprintf(out, "kernels   median %.1f us, min %.1f, max %.1f over %llu runs\n", kernel.median * 1e-3,
                 kernel.min * 1e-3, kernel.max * 1e-3, static_cast<unsigned long long>(outcome.timings.size()));
  else
    std::fprintf(out, "kernels   no valid device timestamps on this device\n");
  std::fprintf(out, "wall      median %.1f us, min %.1f, max %.1f (submit to completion%s)\n", wall.median * 1e-3,
               wall.min * 1e-3, wall.max * 1e-3,
               outcome.input_on_device ? "" : ", copying the input from the host each run: it exceeds one allocation");
  if (valid && kernel.median > 0) {
    std::fprintf(out, "speed     %.2f GB/s (input bytes / median kernel time)\n",
                 static_cast<double>(w.data.size()) / static_cast<double>(kernel.median));
    if (r.probe_ns)
      std::fprintf(out, "bandwidth read probe %.2f GB/s; this reduction runs at %.3fx of it\n",
                   static_cast<double>(w.data.size()) / static_cast<double>(*r.probe_ns),
                   static_cast<double>(*r.probe_ns) / static_cast<double>(kernel.median));
  }
  if (o.bandwidth && !r.probe_ns)
    std::fprintf(out, "bandwidth not measured: no valid timestamps, or the input does not fit one device allocation\n");
}

}  // namespace zr::cli
