// The page's only script: runs with live progress and cancel, dropped files, Save as
// Baseline. Every state change carries the session's CSRF token.
(function () {
  "use strict";
  var csrf = (document.querySelector('meta[name="byop-csrf"]') || {}).content || "";
  var $ = function (id) { return document.getElementById(id); };

  function post(url, body, extra) {
    var headers = { "Content-Type": "application/json", "X-Byop-Csrf": csrf };
    for (var k in extra || {}) headers[k] = extra[k];
    return fetch(url, { method: "POST", headers: headers, body: JSON.stringify(body || {}), credentials: "same-origin" })
      .then(function (r) {
        return r.json().then(function (j) { return { status: r.status, body: j }; },
          function () { return { status: r.status, body: {} }; });
      });
  }
  function message(body, fallback) {
    var e = body && body.error;
    return e ? e.message + (e.field ? " (" + e.field + ")" : "") : fallback;
  }

  // Dropping a file on a text area puts its text there.
  ["output", "source", "prompt"].forEach(function (id) {
    var area = $(id);
    if (!area) return;
    area.addEventListener("dragover", function (e) { e.preventDefault(); area.classList.add("drop"); });
    area.addEventListener("dragleave", function () { area.classList.remove("drop"); });
    area.addEventListener("drop", function (e) {
      e.preventDefault();
      area.classList.remove("drop");
      var file = e.dataTransfer && e.dataTransfer.files[0];
      if (file) file.text().then(function (t) { area.value = t; });
    });
  });

  // Forget key: the server drops this session's key now.
  var forget = $("forget-key");
  if (forget) {
    forget.addEventListener("click", function () {
      post("/api/session/forget-key", {}).then(function (r) {
        var held = $("key-held");
        if (r.status !== 200) { $("key-note").textContent = message(r.body, "the key could not be forgotten (" + r.status + ")"); return; }
        if (held) held.remove();
        $("api-key").value = "";
        $("api-key").placeholder = "sk-…";
        forget.textContent = "Key forgotten";
      });
    });
  }

  var form = $("run-form");
  if (form) {
    var runId = null, source = null;
    var show = function (el, on) { el.hidden = !on; };
    var fail = function (text) { $("error").textContent = text; show($("error"), true); finish(); };
    var finish = function () {
      if (source) source.close();
      source = null;
      show($("cancel"), false);
      $("run").disabled = false;
    };
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      show($("error"), false);
      var key = $("api-key").value.trim();
      var mode = form.querySelector('input[name="mode"]:checked');
      var body = {
        output: $("output").value, source: $("source").value, prompt: $("prompt").value,
        playbook: $("playbook").value, mode: mode ? mode.value : "screening",
        document: $("document").value
      };
      $("run").disabled = true;
      show($("progress-box"), true);
      $("progress").value = 0;
      $("progress-text").textContent = "starting…";
      post("/api/runs", body, key ? { "X-Evaluator-Key": key } : {}).then(function (r) {
        // The server holds the key for this session now; the page keeps no copy.
        $("api-key").value = "";
        if (key) $("api-key").placeholder = "a key is held for this session";
        if (r.status !== 202) return fail(message(r.body, "the run could not start (" + r.status + ")"));
        runId = r.body.run_id;
        show($("cancel"), true);
        source = new EventSource(r.body.events);
        source.addEventListener("progress", function (ev) {
          var p = JSON.parse(ev.data);
          $("progress").value = p.percentage;
          $("progress-text").textContent = p.message;
        });
        source.addEventListener("done", function (ev) {
          var d = JSON.parse(ev.data);
          finish();
          window.location.assign("/reports/" + encodeURIComponent(d.report_id));
        });
        source.addEventListener("failed", function (ev) { fail(message(JSON.parse(ev.data), "the run failed")); });
        source.addEventListener("cancelled", function () { $("progress-text").textContent = "cancelled"; finish(); });
        source.onerror = function () { if (source) fail("lost the connection to the server"); };
      }, function () { fail("the server did not answer"); });
    });
    $("cancel").addEventListener("click", function () {
      if (runId) post("/api/runs/" + encodeURIComponent(runId) + "/cancel");
    });
  }

  var save = $("save-baseline");
  if (save) {
    save.addEventListener("click", function () {
      save.disabled = true;
      post("/api/baseline", { report_id: save.dataset.report }).then(function (r) {
        $("baseline-result").textContent = r.status === 200
          ? "Saved as the baseline of " + r.body.document
          : message(r.body, "not saved (" + r.status + ")");
        save.disabled = false;
      });
    });
  }
  var planForm = $("plan-form");
  if (planForm) {
    planForm.addEventListener("submit", function (e) {
      e.preventDefault();
      $("plan-error").hidden = true;
      $("validate").disabled = true;
      post("/api/validate-plan", {
        plan: $("plan-text").value, notes: $("plan-notes").value,
        current_time: $("plan-now").value, timezone: $("plan-tz").value
      }).then(function (r) {
        $("validate").disabled = false;
        if (r.status !== 200) {
          $("plan-error").textContent = message(r.body, "not validated (" + r.status + ")");
          $("plan-error").hidden = false;
          return;
        }
        var v = r.body.validation || {};
        $("plan-status").textContent = v.status || "no validation";
        var list = $("plan-errors");
        list.textContent = "";
        (v.errors || []).forEach(function (err) {
          var li = document.createElement("li");
          li.textContent = typeof err === "string" ? err : JSON.stringify(err);
          list.appendChild(li);
        });
        $("plan-json").textContent = JSON.stringify(v, null, 2);
        $("plan-report").href = "/reports/" + encodeURIComponent(r.body.byop_report.report_id);
        $("plan-result").hidden = false;
      });
    });
  }
})();
