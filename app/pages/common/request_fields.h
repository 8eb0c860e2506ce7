// A view's request and its number fields, bound once instead of written out three times (the
// fields, the request read from them, the request shown in them). Each field — a QSpinBox,
// QDoubleSpinBox or SliderField — is bound to the request member it shows through an
// accessor that works on a const and a non-const request alike:
//   fields_.bind(dim_, [](auto& r) -> auto& { return r.block.dim; });
// read() fills a request from the fields; write() shows a request in them with their signals
// blocked (the caller then recomputes once, not once per field); onChange() connects every
// field's change to one slot.
#pragma once

#include <QObject>
#include <QSignalBlocker>

#include <functional>
#include <type_traits>
#include <vector>

namespace lwb::app::pages {

template <class Request>
class RequestFields {
 public:
  template <class Field, class Access>
  void bind(Field* field, Access member) {
    using Value = decltype(field->value());
    entries_.push_back(Entry{
        field,
        [field, member](Request& r) {
          auto& v = member(r);
          v = static_cast<std::remove_reference_t<decltype(v)>>(field->value());
        },
        [field, member](const Request& r) { field->setValue(static_cast<Value>(member(r))); },
        [field](QObject* context, std::function<void()> slot) {
          QObject::connect(field, &Field::valueChanged, context, [slot = std::move(slot)] { slot(); });
        }});
  }

  void read(Request& r) const {
    for (const Entry& e : entries_) e.read(r);
  }
  // blockSignals false: every field announces its change (a view that recomputes per field).
  void write(const Request& r, bool blockSignals = true) const {
    for (const Entry& e : entries_) {
      const QSignalBlocker block(blockSignals ? e.field : nullptr);
      e.write(r);
    }
  }
  void onChange(QObject* context, const std::function<void()>& slot) const {
    for (const Entry& e : entries_) e.connect(context, slot);
  }

 private:
  struct Entry {
    QObject* field;
    std::function<void(Request&)> read;
    std::function<void(const Request&)> write;
    std::function<void(QObject*, std::function<void()>)> connect;
  };
  std::vector<Entry> entries_;
};

}  // namespace lwb::app::pages
