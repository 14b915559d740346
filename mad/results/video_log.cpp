#include "mad/results/video_log.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "common/error.h"
#include "common/html_escape.h"
#include "mad/results/csv.h"
#include "mad/results/results_settings.h"

namespace mad::results {
namespace {

std::string reason(int err) {
  return err ? std::strerror(err) : "an unknown write error";
}

std::string json_text(const std::string& s) {
  return nlohmann::json(s).dump();
}

std::string xml_attribute(const std::string& name, const std::string& value) {
  return name + "=\"" + html_escape(value) + "\" ";
}

// "a": 1, "b": 2 (JSON members of numbers).
std::string json_numbers(const NamedValues& values, const std::string& indent) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i)
    out += (i ? ",\n" : "\n") + indent + json_text(values[i].first) + ": " +
           log_number(values[i].second);
  return out;
}

std::string json_strings(const std::vector<std::string>& list) {
  std::string out = "[";
  for (std::size_t i = 0; i < list.size(); ++i) out += (i ? ", " : "") + json_text(list[i]);
  return out + "]";
}

}  // namespace

std::string log_number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

VideoLog::VideoLog(VideoLogFormat format, const std::string& path, const std::string& option,
                   bool force)
    : format_(format), path_(path), option_(option) {
  if (path == "-") {
    file_ = stdout;
    return;
  }
  std::error_code ec;
  if (!force && std::filesystem::exists(path, ec))
    throw InvalidArgument(option + " '" + path +
                          "' exists: pass --force to replace it, or write "
                          "to another file");
  errno = 0;
  file_ = std::fopen(path.c_str(), "wb");
  if (!file_) throw InputError("cannot write '" + path + "': " + reason(errno));
  owned_ = true;
}

VideoLog::~VideoLog() {
  if (owned_ && file_) std::fclose(file_);
}

void VideoLog::put(const std::string& text) {
  errno = 0;
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size())
    throw InputError("cannot write '" + path_ + "': " + reason(errno));
}

void VideoLog::flush() {
  errno = 0;
  if (std::fflush(file_) != 0) throw InputError("cannot write '" + path_ + "': " + reason(errno));
}

void VideoLog::begin(const VideoLogHead& head) {
  metrics_ = head.metrics;
  switch (format_) {
    case VideoLogFormat::Json:
      put("{\n  \"version\": " + json_text(head.version) + ",\n  \"params\": {\n    \"ref\": " +
          json_text(head.ref) + ",\n    \"dist\": " + json_text(head.dist) +
          ",\n    \"qualityWidth\": " + std::to_string(head.width) + ",\n    \"qualityHeight\": " +
          std::to_string(head.height) + ",\n    \"pixelFormat\": " + json_text(head.pixel_format) +
          ",\n    \"frameRate\": " + log_number(head.frame_rate > 0 ? head.frame_rate : NAN) +
          "\n  },\n  \"frames\": [");
      break;
    case VideoLogFormat::Xml:
      put("<VMAF " + xml_attribute("version", head.version) + ">\n  <params " +
          xml_attribute("ref", head.ref) + xml_attribute("dist", head.dist) +
          xml_attribute("qualityWidth", std::to_string(head.width)) +
          xml_attribute("qualityHeight", std::to_string(head.height)) +
          xml_attribute("pixelFormat", head.pixel_format) +
          xml_attribute("frameRate", log_number(head.frame_rate > 0 ? head.frame_rate : NAN)) +
          "/>\n  <frames>\n");
      break;
    case VideoLogFormat::Csv: {
      std::string line = "Frame";
      for (const std::string& m : metrics_) line += "," + csv_escape(m);
      put(line + "\n");
      break;
    }
  }
  flush();
}

void VideoLog::frame(std::int64_t frame_number, const std::vector<double>& values) {
  const std::string n = std::to_string(frame_number);
  std::string text;
  switch (format_) {
    case VideoLogFormat::Json: {
      NamedValues named;
      for (std::size_t i = 0; i < values.size(); ++i) named.emplace_back(metrics_[i], values[i]);
      text = std::string(frames_ ? ",\n" : "\n") + "    {\n      \"frameNum\": " + n +
             ",\n      \"metrics\": {" + json_numbers(named, "        ") + "\n      }\n    }";
      break;
    }
    case VideoLogFormat::Xml:
      text = "    <frame " + xml_attribute("frameNum", n);
      for (std::size_t i = 0; i < values.size(); ++i)
        text += xml_attribute(metrics_[i], log_number(values[i]));
      text += "/>\n";
      break;
    case VideoLogFormat::Csv:
      text = n;
      for (double v : values) text += "," + (std::isfinite(v) ? log_number(v) : std::string());
      text += "\n";
      break;
  }
  put(text);
  flush();  // a stopped run keeps every frame written
  ++frames_;
}

void VideoLog::end(const VideoLogEnd& end) {
  switch (format_) {
    case VideoLogFormat::Json: {
      std::string text = "\n  ],\n  \"pooled_metrics\": {";
      for (std::size_t i = 0; i < end.pooled.size(); ++i)
        text += std::string(i ? ",\n" : "\n") + "    " + json_text(end.pooled[i].first) + ": {" +
                json_numbers(end.pooled[i].second, "      ") + "\n    }";
      text += "\n  },\n  \"aggregate_metrics\": {" + json_numbers(end.aggregate, "    ") + "\n  },";
      // The clip's figures also at the top level, under their own names ("smad", "tmad",
      // "stmad"), where scripts reading one number look first.
      for (const auto& [name, value] : end.aggregate)
        if (name != "mad") text += "\n  " + json_text(name) + ": " + log_number(value) + ",";
      text += "\n  \"frames_scored\": " + std::to_string(end.frames_scored) +
              ",\n  \"ref_frames\": " + std::to_string(end.ref_frames) +
              ",\n  \"dist_frames\": " + std::to_string(end.dist_frames) +
              ",\n  \"notes\": " + json_strings(end.notes) +
              ",\n  \"fps\": " + log_number(end.fps) +
              ",\n  \"seconds\": " + log_number(end.seconds) +
              ",\n  \"fps_after_first_frame\": " + log_number(end.fps_after_first_frame) +
              ",\n  \"seconds_to_first_frame\": " + log_number(end.seconds_to_first_frame) +
              ",\n  \"settings\": {";
      for (std::size_t i = 0; i < end.settings.size(); ++i)
        text += std::string(i ? ",\n" : "\n") + "    " + json_text(end.settings[i].first) + ": " +
                json_text(end.settings[i].second);
      put(text + "\n  }\n}\n");
      break;
    }
    case VideoLogFormat::Xml: {
      std::string text = "  </frames>\n  <pooled_metrics>\n";
      for (const auto& [metric, stats] : end.pooled) {
        text += "    <metric " + xml_attribute("name", metric);
        for (const auto& [stat, value] : stats) text += xml_attribute(stat, log_number(value));
        text += "/>\n";
      }
      text += "  </pooled_metrics>\n  <aggregate_metrics ";
      for (const auto& [name, value] : end.aggregate)
        text += xml_attribute(name, log_number(value));
      text += "/>\n  <fyi " + xml_attribute("fps", log_number(end.fps)) +
              xml_attribute("seconds", log_number(end.seconds)) +
              xml_attribute("fps_after_first_frame", log_number(end.fps_after_first_frame)) +
              xml_attribute("seconds_to_first_frame", log_number(end.seconds_to_first_frame)) +
              xml_attribute("frames_scored", std::to_string(end.frames_scored)) +
              xml_attribute("ref_frames", std::to_string(end.ref_frames)) +
              xml_attribute("dist_frames", std::to_string(end.dist_frames)) + "/>\n";
      for (const std::string& note : end.notes)
        text += "  <note>" + html_escape(note) + "</note>\n";
      text += "  <settings ";
      for (const auto& [key, value] : end.settings) text += xml_attribute(key, value);
      put(text + "/>\n</VMAF>\n");
      break;
    }
    case VideoLogFormat::Csv:
      if (path_ != "-") {
        RunSettings settings;
        for (const auto& [key, value] : end.settings) set_setting(settings, key, value);
        write_settings(path_, settings);
      }
      break;
  }
  flush();
  if (owned_) {
    owned_ = false;
    errno = 0;
    const bool closed = std::fclose(file_) == 0;
    file_ = nullptr;
    if (!closed) throw InputError("cannot write '" + path_ + "': " + reason(errno));
  }
}

}  // namespace mad::results
