/* Sổ Tôm: drum sounds synthesised with the Web Audio API (no audio files: festival grounds have
   no reliable internet). A signal's pattern is a string: T tùng (skin), C cắc (rim), R a long roll,
   B the big drum, a space a short pause. Muting is remembered on this device. */
(function () {
  "use strict";

  var STORE = "sotom.sound";
  var ctx = null;
  var enabled = false;
  try { enabled = window.localStorage.getItem(STORE) === "on"; } catch (e) { enabled = false; }

  function audio() {
    if (!ctx) {
      var AC = window.AudioContext || window.webkitAudioContext;
      if (!AC) { return null; }
      ctx = new AC();
    }
    return ctx;
  }

  function noiseBuffer(ac, seconds) {
    var length = Math.max(1, Math.floor(ac.sampleRate * seconds));
    var buffer = ac.createBuffer(1, length, ac.sampleRate);
    var data = buffer.getChannelData(0);
    for (var i = 0; i < length; i++) { data[i] = Math.random() * 2 - 1; }
    return buffer;
  }

  /* A skin beat: a sine whose pitch falls, with a soft thud of filtered noise. */
  function skin(ac, at, freq, length, gain) {
    var osc = ac.createOscillator();
    var env = ac.createGain();
    osc.type = "sine";
    osc.frequency.setValueAtTime(freq * 1.6, at);
    osc.frequency.exponentialRampToValueAtTime(freq, at + 0.06);
    env.gain.setValueAtTime(0.0001, at);
    env.gain.exponentialRampToValueAtTime(gain, at + 0.008);
    env.gain.exponentialRampToValueAtTime(0.0001, at + length);
    osc.connect(env).connect(ac.destination);
    osc.start(at);
    osc.stop(at + length + 0.05);

    var thud = ac.createBufferSource();
    var low = ac.createBiquadFilter();
    var tenv = ac.createGain();
    thud.buffer = noiseBuffer(ac, 0.08);
    low.type = "lowpass";
    low.frequency.value = 600;
    tenv.gain.setValueAtTime(gain * 0.5, at);
    tenv.gain.exponentialRampToValueAtTime(0.0001, at + 0.07);
    thud.connect(low).connect(tenv).connect(ac.destination);
    thud.start(at);
  }

  /* A rim tap: a very short, bright click. */
  function rim(ac, at) {
    var src = ac.createBufferSource();
    var band = ac.createBiquadFilter();
    var env = ac.createGain();
    src.buffer = noiseBuffer(ac, 0.05);
    band.type = "bandpass";
    band.frequency.value = 2600;
    band.Q.value = 3;
    env.gain.setValueAtTime(0.9, at);
    env.gain.exponentialRampToValueAtTime(0.0001, at + 0.045);
    src.connect(band).connect(env).connect(ac.destination);
    src.start(at);
    var click = ac.createOscillator();
    var cenv = ac.createGain();
    click.type = "square";
    click.frequency.value = 1800;
    cenv.gain.setValueAtTime(0.15, at);
    cenv.gain.exponentialRampToValueAtTime(0.0001, at + 0.02);
    click.connect(cenv).connect(ac.destination);
    click.start(at);
    click.stop(at + 0.03);
  }

  /* Schedule a pattern; returns its length in seconds. */
  function schedule(ac, pattern, start) {
    var t = start;
    for (var i = 0; i < pattern.length; i++) {
      var c = pattern.charAt(i).toUpperCase();
      if (c === "T") { skin(ac, t, 110, 0.45, 0.9); t += 0.32; }
      else if (c === "C") { rim(ac, t); t += 0.2; }
      else if (c === "B") { skin(ac, t, 55, 1.1, 1.0); t += 0.7; }
      else if (c === "R") {
        for (var k = 0; k < 30; k++) { skin(ac, t + k * 0.045, 120, 0.12, 0.2 + 0.5 * (k / 30)); }
        t += 1.5;
      } else if (c === " ") { t += 0.35; }
    }
    return t - start;
  }

  function resume(ac) {
    if (ac.state !== "suspended") { return; }
    var p = ac.resume();
    if (p && p.catch) { p.catch(function () { /* needs a tap first */ }); }
  }

  function play(pattern) {
    if (!enabled || !pattern) { return 0; }
    var ac = audio();
    if (!ac) { return 0; }
    resume(ac);
    return schedule(ac, pattern, ac.currentTime + 0.03);
  }

  function setEnabled(on) {
    enabled = !!on;
    try { window.localStorage.setItem(STORE, enabled ? "on" : "off"); } catch (e) { /* private mode */ }
    if (enabled) {
      var ac = audio();
      if (ac) { resume(ac); }
    }
    return enabled;
  }

  /* A toggle button: the first tap is the user gesture browsers need before any sound. */
  function bindToggle(button) {
    if (!button) { return; }
    function show() {
      button.setAttribute("aria-pressed", enabled ? "true" : "false");
      button.textContent = enabled ? gettext("Tắt âm thanh") : gettext("Bật âm thanh");
    }
    button.addEventListener("click", function () { setEnabled(!enabled); show(); if (enabled) { play("T"); } });
    show();
  }

  window.SoTomSound = { play: play, setEnabled: setEnabled, bindToggle: bindToggle,
                        isEnabled: function () { return enabled; } };
})();
