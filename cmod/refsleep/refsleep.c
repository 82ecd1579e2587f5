// SPDX-License-Identifier: MIT
// refsleep: the RP2040 asleep on a 32.768 kHz reference (clk_gpin) between events, its time kept.
//
// A user C module of the clock's own UF2 (firmware.sh); hal/rp2040/reftime.py is its Python side
// and does every piece of arithmetic. Registers and their behaviour: RP2040 datasheet, 2.15
// Clocks (CLK_REF_CTRL SRC/AUXSRC: clk_gpin0/1 through the aux source; CLK_SYS_CTRL SRC: clk_ref;
// the glitchless muxes), 2.16 XOSC (CTRL, STARTUP, STATUS.STABLE), 2.17 ROSC, 2.18 PLL, 2.10
// VREG and BOD, 4.6 Timer, 4.7 Watchdog (TICK: the tick generator from clk_ref that drives the
// timer and the watchdog).
//
// sleep(ticks, out[, mask, on, length, period]), called with interrupts disabled:
//   at 125 MHz     waits for a microsecond tick of the timer (I_u), moves clk_ref onto the
//                  reference with a tick each of its cycles, waits for two reference ticks (the
//                  second is I_a) and checks their spacing against the crystal (within 2 %):
//                  no tick, or a wrong rate, and it goes back to the crystal without sleeping
//   at 32.768 kHz  clk_sys = clk_ref = the reference; PLLs, XOSC, ROSC, clk_peri/usb/adc/rtc
//                  stopped; the core voltage at 0.80 V, the brown-out detector and the SWD pads'
//                  pulls off; WFI until the timer's alarm `ticks` after I_a, or an interrupt
//                  (a lever's edge); the SIO outputs of `mask` flashed on the way (lit at `on`
//                  ticks, `length` ticks every `period`) without waking the crystal: a running
//                  light's flashes cost no wake
//   at 12 MHz      back up: the voltage, ROSC and XOSC (its start-up, STARTUP.DELAY x 256
//                  cycles), clk_sys from the XOSC, the PLLs locked; a reference tick (I_b) checked
//                  against the crystal again, clk_ref onto the XOSC, the next microsecond tick
//                  (I_v); then clk_sys from PLL_SYS and the rest as it was
// SysTick counts clk_sys cycles between I_u and I_a, and between I_b and I_v: with the
// reference ticks between I_a and I_b, the time from I_u to I_v is known exactly, against the
// timer's raw count, which counted microseconds, then reference ticks, then microseconds.
// Nothing rewrites the timer: the offset from the timer's count to the clock's time grows by
// what each sleep did not count, and ticks_ms() adds it (offset(ms, us) sets it).
#include "py/runtime.h"
#include "py/mphal.h"
#include "py/smallint.h"

#include "hardware/clocks.h"
#include "hardware/gpio.h"
#include "hardware/irq.h"
#include "hardware/sync.h"
#include "hardware/timer.h"
#include "hardware/structs/clocks.h"
#include "hardware/structs/nvic.h"
#include "hardware/structs/pll.h"
#include "hardware/structs/rosc.h"
#include "hardware/structs/scb.h"
#include "hardware/structs/sio.h"
#include "hardware/structs/systick.h"
#include "hardware/structs/timer.h"
#include "hardware/structs/vreg_and_chip_reset.h"
#include "hardware/structs/watchdog.h"
#include "hardware/structs/xosc.h"
#include "hardware/regs/pads_bank0.h"

#define REF_HZ (32768)
#define SYSTICK_MASK (0xffffff)
#define VSEL_SLEEP (5) // 0.80 V (VREG VSEL 0..5)
#define OUT_LEN (12)

// What sleep() returns (and puts in out[0]).
#define SLEPT (0) // to the alarm
#define WOKEN (1) // by an interrupt (a lever, a button, USB power)
#define NO_REFERENCE (2) // no reference tick: not slept
#define OFF_RATE (3) // reference ticks, at the wrong rate: not slept
#define LOST (4) // slept, but at the wake the reference had stopped or left its rate

static int ref_gpio = -1;
static uint32_t ref_auxsrc; // CLK_REF_CTRL AUXSRC: 1 clk_gpin0 (GP20), 2 clk_gpin1 (GP22)
static int alarm_num = -1;
static uint32_t xosc_delay = 47; // STARTUP.DELAY for a restart: 47 x 256 / 12 MHz, about 1 ms
static uint32_t off_ms; // the clock's ms = (timer's us + off_us) / 1000 + off_ms
static uint32_t off_us;
// The last sleep's window: the timer's 64-bit counts at I_u, I_a, I_b and I_v, the us from I_u
// to I_a, and the clock at I_u: ms_of() places a count taken in it (a lever's hardware stamp).
static bool win_valid;
static uint64_t win_u, win_a, win_b, win_v;
static uint32_t win_ua_us, win_ms_u, win_us_u;

static void alarm_noop(uint alarm) {
    (void)alarm;
}

static inline uint32_t systick_now(void) {
    return systick_hw->cvr;
}

static inline uint32_t cycles_since(uint32_t from) {
    return (from - systick_hw->cvr) & SYSTICK_MASK; // SysTick counts down
}

// The next change of the timer's count: the count and SysTick then; false after `limit` cycles.
static bool next_count(uint32_t *count, uint32_t *cycle, uint32_t limit) {
    uint32_t before = timer_hw->timerawl;
    uint32_t start = systick_hw->cvr;
    for (;;) {
        uint32_t now = timer_hw->timerawl;
        uint32_t at = systick_hw->cvr;
        if (now != before) {
            *count = now;
            *cycle = at;
            return true;
        }
        if (((start - at) & SYSTICK_MASK) > limit) {
            return false;
        }
    }
}

static uint64_t raw_us_at(uint32_t low) {
    uint32_t high = timer_hw->timerawh;
    if (timer_hw->timerawl < low) {
        high--; // the low word wrapped after `low` was read
    }
    return ((uint64_t)high << 32) | low;
}

// clk_ref onto the crystal, a microsecond tick each 12 of its cycles.
static void ref_on_xosc(void) {
    clocks_hw->clk[clk_ref].ctrl = (ref_auxsrc << CLOCKS_CLK_REF_CTRL_AUXSRC_LSB)
        | CLOCKS_CLK_REF_CTRL_SRC_VALUE_XOSC_CLKSRC;
    while (!(clocks_hw->clk[clk_ref].selected & (1u << CLOCKS_CLK_REF_CTRL_SRC_VALUE_XOSC_CLKSRC))) {
    }
    watchdog_hw->tick = WATCHDOG_TICK_ENABLE_BITS | (XOSC_HZ / 1000000);
}

// A PLL powered down, and up again as it was (datasheet 2.18.2: FBDIV, then power, lock, post).
typedef struct {
    uint32_t cs, fbdiv, prim;
} pll_saved_t;

static void pll_down(pll_hw_t *pll, pll_saved_t *saved) {
    saved->cs = pll->cs & PLL_CS_REFDIV_BITS;
    saved->fbdiv = pll->fbdiv_int;
    saved->prim = pll->prim;
    pll->pwr = PLL_PWR_BITS;
}

static void pll_up(pll_hw_t *pll, const pll_saved_t *saved) {
    pll->cs = saved->cs;
    pll->fbdiv_int = saved->fbdiv;
    pll->pwr &= ~(PLL_PWR_PD_BITS | PLL_PWR_VCOPD_BITS);
    while (!(pll->cs & PLL_CS_LOCK_BITS)) {
    }
    pll->prim = saved->prim;
    pll->pwr &= ~PLL_PWR_POSTDIVPD_BITS;
}

static mp_obj_t refsleep_init(mp_obj_t gpio_in, mp_obj_t delay_in) {
    int gpio = mp_obj_get_int(gpio_in);
    if (gpio != 20 && gpio != 22) {
        mp_raise_ValueError(MP_ERROR_TEXT("the reference is on GP20 (clk_gpin0) or GP22 (clk_gpin1)"));
    }
    int delay = mp_obj_get_int(delay_in);
    if (delay < 1 || delay > 0x3fff) {
        mp_raise_ValueError(MP_ERROR_TEXT("XOSC start-up delay out of range"));
    }
    xosc_delay = delay;
    if (alarm_num < 0) {
        alarm_num = hardware_alarm_claim_unused(true);
        hardware_alarm_set_callback(alarm_num, alarm_noop); // INTE and the NVIC line on
    }
    ref_gpio = gpio;
    ref_auxsrc = gpio == 20 ? CLOCKS_CLK_REF_CTRL_AUXSRC_VALUE_CLKSRC_GPIN0
        : CLOCKS_CLK_REF_CTRL_AUXSRC_VALUE_CLKSRC_GPIN1;
    gpio_set_function(gpio, GPIO_FUNC_GPCK);
    gpio_set_pulls(gpio, false, false);
    gpio_set_input_enabled(gpio, true);
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_2(refsleep_init_obj, refsleep_init);

static mp_obj_t refsleep_offset(mp_obj_t ms_in, mp_obj_t us_in) {
    off_ms = mp_obj_get_int(ms_in);
    off_us = mp_obj_get_int(us_in);
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_2(refsleep_offset_obj, refsleep_offset);

static uint32_t clock_ms(uint64_t raw) {
    return (uint32_t)((raw + off_us) / 1000 + off_ms) & (MICROPY_PY_TIME_TICKS_PERIOD - 1);
}

// The 64-bit count whose low word is `low`: the latest one not after now.
static uint64_t raw_of(uint32_t low) {
    uint64_t now = time_us_64();
    uint64_t raw = (now & ~(uint64_t)0xffffffff) | low;
    if (raw > now) {
        raw -= (uint64_t)1 << 32;
    }
    return raw;
}

// The clock's millisecond of a timer count given as two 16-bit halves (small ints: a hard
// interrupt handler calls it): a count of the last sleep's window at its place in it (reference
// ticks after I_a), any other by the offset. A count read at an edge says the edge came before
// the next count: placed there, a stamp is never early, and late by a reference tick at most.
static mp_obj_t refsleep_ms_of(mp_obj_t top_in, mp_obj_t low_in) {
    uint32_t low = ((uint32_t)MP_OBJ_SMALL_INT_VALUE(top_in) << 16) | (MP_OBJ_SMALL_INT_VALUE(low_in) & 0xffff);
    uint64_t raw = raw_of(low);
    if (win_valid && raw >= win_u && raw <= win_v) {
        uint64_t us;
        if (raw < win_a) {
            us = raw - win_u + 1; // the entry: microseconds, until the switch
            if (us > win_ua_us) {
                us = win_ua_us;
            }
        } else if (raw <= win_b) {
            us = win_ua_us + (raw - win_a + 1) * 15625 / 512;
        } else {
            us = win_ua_us + (win_b - win_a) * 15625 / 512 + (raw - win_b);
        }
        return MP_OBJ_NEW_SMALL_INT((win_ms_u + (win_us_u + us) / 1000) & (MICROPY_PY_TIME_TICKS_PERIOD - 1));
    }
    return MP_OBJ_NEW_SMALL_INT(clock_ms(raw));
}
static MP_DEFINE_CONST_FUN_OBJ_2(refsleep_ms_of_obj, refsleep_ms_of);

// The clock's milliseconds (ticks_ms()'s period): allocates nothing, for interrupt handlers too.
static mp_obj_t refsleep_ticks_ms(void) {
    return MP_OBJ_NEW_SMALL_INT(clock_ms(time_us_64()));
}
static MP_DEFINE_CONST_FUN_OBJ_0(refsleep_ticks_ms_obj, refsleep_ticks_ms);

static mp_obj_t refsleep_sleep(size_t n_args, const mp_obj_t *args) {
    uint32_t ticks = mp_obj_get_int(args[0]);
    mp_buffer_info_t info;
    mp_get_buffer_raise(args[1], &info, MP_BUFFER_WRITE);
    if (info.len < OUT_LEN * sizeof(int32_t) || info.typecode != 'i') {
        mp_raise_ValueError(MP_ERROR_TEXT("out: array('i') of 12"));
    }
    // a light flashed meanwhile: SIO outputs `mask` lit at `on` ticks from I_a (<= 0: lit now)
    // for `length` ticks every `period`
    uint32_t mask = n_args > 2 ? mp_obj_get_int(args[2]) : 0;
    int32_t on = n_args > 3 ? mp_obj_get_int(args[3]) : 0;
    int32_t length = n_args > 4 ? mp_obj_get_int(args[4]) : 0;
    int32_t period = n_args > 5 ? mp_obj_get_int(args[5]) : 0;
    bool flashing = mask && length > 0 && period > length;
    if (ref_gpio < 0) {
        mp_raise_ValueError(MP_ERROR_TEXT("refsleep.init() first"));
    }
    uint32_t primask = save_and_disable_interrupts();
    if (!(primask & 1)) {
        restore_interrupts(primask);
        mp_raise_ValueError(MP_ERROR_TEXT("interrupts must be disabled"));
    }
    int32_t *out = info.buf;
    for (int i = 0; i < OUT_LEN; i++) {
        out[i] = 0;
    }
    if (nvic_hw->ispr & nvic_hw->iser) {
        // an interrupt came before the caller disabled them: no sleep, no time to account
        uint64_t now = time_us_64();
        out[0] = WOKEN;
        out[1] = clock_ms(now);
        out[2] = (now + off_us) % 1000;
        out[3] = out[6] = clock_get_hz(clk_sys) / 1000000;
        return MP_OBJ_NEW_SMALL_INT(WOKEN);
    }
    uint32_t sys_hz = clock_get_hz(clk_sys);
    uint32_t per_us = sys_hz / 1000000;
    uint32_t ref_cycles = sys_hz / REF_HZ; // clk_sys cycles a reference period
    uint32_t systick_csr = systick_hw->csr;
    uint32_t systick_rvr = systick_hw->rvr;
    systick_hw->csr = 0;
    systick_hw->rvr = SYSTICK_MASK;
    systick_hw->cvr = 0;
    systick_hw->csr = 5; // enabled, the processor's clock

    // I_u: a microsecond tick
    uint32_t t_u, c_u, t_a, c_a, c_a0, t_a0, t_v, c_v;
    next_count(&t_u, &c_u, 4 * per_us);
    uint64_t raw_u = raw_us_at(t_u);
    out[1] = clock_ms(raw_u);
    out[2] = (raw_u + off_us) % 1000;
    out[3] = per_us;
    int status = SLEPT;
    // clk_ref onto the reference (its AUXSRC changed while SRC is not aux: glitch-free)
    clocks_hw->clk[clk_ref].ctrl = (ref_auxsrc << CLOCKS_CLK_REF_CTRL_AUXSRC_LSB)
        | CLOCKS_CLK_REF_CTRL_SRC_VALUE_XOSC_CLKSRC;
    clocks_hw->clk[clk_ref].ctrl = (ref_auxsrc << CLOCKS_CLK_REF_CTRL_AUXSRC_LSB)
        | CLOCKS_CLK_REF_CTRL_SRC_VALUE_CLKSRC_CLK_REF_AUX;
    watchdog_hw->tick = WATCHDOG_TICK_ENABLE_BITS | 1;
    // two ticks: the tick generator may first finish the crystal's count (up to 12 cycles)
    if (!next_count(&t_a0, &c_a0, 16 * ref_cycles) || !next_count(&t_a, &c_a, 2 * ref_cycles)) {
        status = NO_REFERENCE;
    } else {
        uint32_t spacing = (c_a0 - c_a) & SYSTICK_MASK;
        if (spacing * 50 < ref_cycles * 49 || spacing * 50 > ref_cycles * 51) {
            status = OFF_RATE;
        }
    }
    if (status != SLEPT) {
        win_valid = false;
        // back to the crystal: the whole stretch from I_u to I_v counted by SysTick
        ref_on_xosc();
        next_count(&t_v, &c_v, 4 * per_us);
        out[4] = (c_u - c_v) & SYSTICK_MASK;
        out[6] = per_us;
        out[8] = t_v - t_u;
        out[0] = status;
        systick_hw->csr = systick_csr;
        systick_hw->rvr = systick_rvr;
        return MP_OBJ_NEW_SMALL_INT(status);
    }
    out[4] = (c_u - c_a) & SYSTICK_MASK;

    // --- down, still at 125 MHz: what may stop while clk_sys runs from PLL_SYS
    uint32_t saved_peri = clocks_hw->clk[clk_peri].ctrl;
    uint32_t saved_usb = clocks_hw->clk[clk_usb].ctrl;
    uint32_t saved_adc = clocks_hw->clk[clk_adc].ctrl;
    uint32_t saved_rtc = clocks_hw->clk[clk_rtc].ctrl;
    uint32_t saved_sys = clocks_hw->clk[clk_sys].ctrl;
    hw_clear_bits(&clocks_hw->clk[clk_peri].ctrl, CLOCKS_CLK_PERI_CTRL_ENABLE_BITS);
    hw_clear_bits(&clocks_hw->clk[clk_usb].ctrl, CLOCKS_CLK_USB_CTRL_ENABLE_BITS);
    hw_clear_bits(&clocks_hw->clk[clk_adc].ctrl, CLOCKS_CLK_ADC_CTRL_ENABLE_BITS);
    hw_clear_bits(&clocks_hw->clk[clk_rtc].ctrl, CLOCKS_CLK_RTC_CTRL_ENABLE_BITS);
    pll_saved_t usb_pll;
    pll_down(pll_usb_hw, &usb_pll);
    uint32_t saved_bod = vreg_and_chip_reset_hw->bod;
    uint32_t saved_vreg = vreg_and_chip_reset_hw->vreg;
    io_rw_32 *swclk = (io_rw_32 *)(PADS_BANK0_BASE + PADS_BANK0_SWCLK_OFFSET);
    io_rw_32 *swd = (io_rw_32 *)(PADS_BANK0_BASE + PADS_BANK0_SWD_OFFSET);
    uint32_t saved_swclk = *swclk;
    uint32_t saved_swd = *swd;
    vreg_and_chip_reset_hw->bod = saved_bod & ~VREG_AND_CHIP_RESET_BOD_EN_BITS;
    *swclk = PADS_BANK0_SWCLK_OD_BITS; // no pulls, input off
    *swd = PADS_BANK0_SWD_OD_BITS;
    uint32_t target = t_a + ticks;
    uint32_t irq = TIMER_IRQ_0 + alarm_num;
    uint32_t bit = 1u << alarm_num;
    timer_hw->intr = bit;
    irq_clear(irq);
    bool lit = false;
    pll_saved_t sys_pll;
    if (flashing) {
        while (on + length <= 0) {
            on += period; // the flash that is lit now, or the next
        }
        lit = on <= 0;
        if (lit) {
            sio_hw->gpio_set = mask;
        } else {
            sio_hw->gpio_clr = mask;
        }
    }

    // what the few instructions at 32.768 kHz store, worked out at 125 MHz (each costs ~60 us)
    uint32_t saved_rosc = rosc_hw->ctrl;
    uint32_t saved_xosc = xosc_hw->ctrl;
    uint32_t rosc_off = (saved_rosc & ~ROSC_CTRL_ENABLE_BITS)
        | (ROSC_CTRL_ENABLE_VALUE_DISABLE << ROSC_CTRL_ENABLE_LSB);
    uint32_t xosc_off = (saved_xosc & ~XOSC_CTRL_ENABLE_BITS)
        | (XOSC_CTRL_ENABLE_VALUE_DISABLE << XOSC_CTRL_ENABLE_LSB);
    uint32_t vreg_low = (saved_vreg & ~VREG_AND_CHIP_RESET_VREG_VSEL_BITS)
        | (VSEL_SLEEP << VREG_AND_CHIP_RESET_VREG_VSEL_LSB);
    uint32_t sys_xosc = (saved_sys & ~(CLOCKS_CLK_SYS_CTRL_AUXSRC_BITS | CLOCKS_CLK_SYS_CTRL_SRC_BITS))
        | (CLOCKS_CLK_SYS_CTRL_AUXSRC_VALUE_XOSC_CLKSRC << CLOCKS_CLK_SYS_CTRL_AUXSRC_LSB);
    sys_pll.cs = pll_sys_hw->cs & PLL_CS_REFDIV_BITS;
    sys_pll.fbdiv = pll_sys_hw->fbdiv_int;
    sys_pll.prim = pll_sys_hw->prim;
    xosc_hw->startup = xosc_delay;
    io_rw_32 *alarm = &timer_hw->alarm[alarm_num];
    int32_t edge = lit ? on + length : on;
    bool flash_edge = flashing && edge < (int32_t)ticks;
    uint32_t at = flash_edge ? t_a + edge : target;
    *alarm = at;

    // --- at the reference: clk_sys from clk_ref, then everything the crystal fed stops
    hw_clear_bits(&clocks_hw->clk[clk_sys].ctrl, CLOCKS_CLK_SYS_CTRL_SRC_BITS);
    while (!(clocks_hw->clk[clk_sys].selected & 1u)) {
    }
    pll_sys_hw->pwr = PLL_PWR_BITS;
    rosc_hw->ctrl = rosc_off;
    xosc_hw->ctrl = xosc_off;
    vreg_and_chip_reset_hw->vreg = vreg_low;
    uint32_t t_w;
    for (;;) {
        // an alarm whose tick is already here would wait for the count to wrap
        if ((int32_t)(timer_hw->timerawl - at) < 0) {
            __wfi();
        }
        t_w = timer_hw->timerawl; // the wake's instant, first: a press is stamped at it
        if (!flash_edge || (int32_t)(t_w - at) < 0 || (nvic_hw->ispr & nvic_hw->iser & ~(1u << irq))) {
            break; // the alarm, an interrupt, or neither (the caller then sleeps again)
        }
        timer_hw->intr = bit;
        irq_clear(irq); // the NVIC keeps a pending interrupt after its line drops
        if (lit) {
            sio_hw->gpio_clr = mask;
            on += period;
        } else {
            sio_hw->gpio_set = mask;
        }
        lit = !lit;
        edge = lit ? on + length : on;
        flash_edge = edge < (int32_t)ticks;
        at = flash_edge ? t_a + edge : target;
        *alarm = at;
    }

    // --- up: the crystal first (its start-up, ~1 ms, overlaps the rest), the voltage
    xosc_hw->ctrl = saved_xosc;
    vreg_and_chip_reset_hw->vreg = saved_vreg;
    rosc_hw->ctrl = saved_rosc;
    if (nvic_hw->ispr & nvic_hw->iser & ~(1u << irq)) {
        status = WOKEN; // another interrupt: the lever's edge it is for is pending
    }
    while (!(vreg_and_chip_reset_hw->vreg & VREG_AND_CHIP_RESET_VREG_ROK_BITS)) {
    }
    while (!(xosc_hw->status & XOSC_STATUS_STABLE_BITS)) {
    }
    clocks_hw->clk[clk_sys].ctrl = sys_xosc; // AUXSRC changed while SRC is clk_ref
    clocks_hw->clk[clk_sys].ctrl = sys_xosc | CLOCKS_CLK_SYS_CTRL_SRC_BITS;
    while (!(clocks_hw->clk[clk_sys].selected & 2u)) {
    }
    // at 12 MHz: the alarm put away, what woke the core noted
    hardware_alarm_cancel(alarm_num);
    timer_hw->intr = bit;
    irq_clear(irq);
    out[9] = t_w - t_a;
    out[10] = nvic_hw->ispr & nvic_hw->iser & ~(1u << irq);
    pll_up(pll_sys_hw, &sys_pll);
    pll_up(pll_usb_hw, &usb_pll);
    // I_b, a reference tick checked against the crystal, then clk_ref onto the crystal: I_v
    uint32_t xosc_us = XOSC_HZ / 1000000;
    uint32_t xosc_ref = XOSC_HZ / REF_HZ;
    // four periods against the crystal: at 12 MHz the polling loop's own jitter (~15 cycles)
    // is under 1 % of them
    uint32_t t_b0, c_b0, t_b = 0, c_b = 0;
    systick_hw->cvr = 0;
    bool ticking = next_count(&t_b0, &c_b0, 3 * xosc_ref);
    for (int i = 0; i < 4 && ticking; i++) {
        ticking = next_count(&t_b, &c_b, 2 * xosc_ref);
    }
    if (!ticking) {
        status = LOST;
        t_b = timer_hw->timerawl;
        c_b = systick_now();
    } else {
        uint32_t spacing = (c_b0 - c_b) & SYSTICK_MASK;
        out[11] = spacing;
        if (spacing * 50 < 4 * xosc_ref * 49 || spacing * 50 > 4 * xosc_ref * 51) {
            status = LOST;
        }
    }
    ref_on_xosc();
    next_count(&t_v, &c_v, 4 * xosc_us);
    out[5] = t_b - t_a;
    out[6] = xosc_us;
    out[7] = (c_b - c_v) & SYSTICK_MASK;
    out[8] = t_v - t_u;
    win_u = raw_u;
    win_a = raw_u + (uint32_t)(t_a - t_u);
    win_b = raw_u + (uint32_t)(t_b - t_u);
    win_v = raw_u + (uint32_t)(t_v - t_u);
    win_ua_us = out[4] / per_us;
    win_ms_u = out[1];
    win_us_u = out[2];
    win_valid = true;
    // clk_sys back on PLL_SYS (AUXSRC changed while SRC is clk_ref, now the crystal)
    hw_clear_bits(&clocks_hw->clk[clk_sys].ctrl, CLOCKS_CLK_SYS_CTRL_SRC_BITS);
    while (!(clocks_hw->clk[clk_sys].selected & 1u)) {
    }
    clocks_hw->clk[clk_sys].ctrl = saved_sys & ~CLOCKS_CLK_SYS_CTRL_SRC_BITS;
    clocks_hw->clk[clk_sys].ctrl = saved_sys;
    while (!(clocks_hw->clk[clk_sys].selected & 2u)) {
    }
    clocks_hw->clk[clk_peri].ctrl = saved_peri;
    clocks_hw->clk[clk_usb].ctrl = saved_usb;
    clocks_hw->clk[clk_adc].ctrl = saved_adc;
    clocks_hw->clk[clk_rtc].ctrl = saved_rtc;
    vreg_and_chip_reset_hw->bod = saved_bod;
    *swclk = saved_swclk;
    *swd = saved_swd;
    systick_hw->csr = systick_csr;
    systick_hw->rvr = systick_rvr;
    out[0] = status;
    return MP_OBJ_NEW_SMALL_INT(status);
}
static MP_DEFINE_CONST_FUN_OBJ_VAR_BETWEEN(refsleep_sleep_obj, 2, 6, refsleep_sleep);

// light(ms): a light sleep on the crystal that leaves the timer's count exact, for a board
// without a reference (and one whose reference failed its check). machine.lightsleep(ms) brings
// its clocks back with the SDK's clock set-up, which first moves clk_ref, and with it the tick
// generator that drives the timer, onto the ring oscillator (nominally 6.5 MHz, 1.8 to 12 MHz
// by the datasheet) while the PLLs lock: the timer then counts slow, and each wake loses some
// microseconds (33 on the emulated chip, about 65 ppm at two wakes a second). Here clk_ref stays
// on the crystal throughout: clk_sys runs from it (12 MHz) while PLL_SYS and PLL_USB are powered
// down and the ring oscillator is off, SLEEP_EN0/1 gate everything but the timer through WFI
// (as machine.lightsleep does: the PIO and DMA stop, and stamp an edge as the core wakes), and
// the PLLs are locked again before clk_sys goes back on PLL_SYS. clk_usb, clk_adc and clk_rtc
// are stopped meanwhile (the RTC, which the clock does not use, loses the sleep). Returns SLEPT
// (the alarm) or WOKEN (another interrupt, pending as it returns).
static mp_obj_t refsleep_light(mp_obj_t ms_in) {
    mp_int_t ms = mp_obj_get_int(ms_in);
    if (ms < 1 || ms > 3600000) {
        mp_raise_ValueError(MP_ERROR_TEXT("light(ms): 1 to 3600000"));
    }
    if (alarm_num < 0) {
        alarm_num = hardware_alarm_claim_unused(true);
        hardware_alarm_set_callback(alarm_num, alarm_noop); // INTE and the NVIC line on
    }
    uint32_t irq = TIMER_IRQ_0 + alarm_num;
    uint32_t bit = 1u << alarm_num;
    uint32_t primask = save_and_disable_interrupts();
    if (nvic_hw->ispr & nvic_hw->iser) {
        restore_interrupts(primask);
        return MP_OBJ_NEW_SMALL_INT(WOKEN);
    }
    uint32_t saved_sys = clocks_hw->clk[clk_sys].ctrl;
    uint32_t saved_usb = clocks_hw->clk[clk_usb].ctrl;
    uint32_t saved_adc = clocks_hw->clk[clk_adc].ctrl;
    uint32_t saved_rtc = clocks_hw->clk[clk_rtc].ctrl;
    uint32_t saved_rosc = rosc_hw->ctrl;
    uint32_t saved_en0 = clocks_hw->sleep_en0;
    uint32_t saved_en1 = clocks_hw->sleep_en1;
    uint32_t saved_scr = scb_hw->scr;
    hw_clear_bits(&clocks_hw->clk[clk_usb].ctrl, CLOCKS_CLK_USB_CTRL_ENABLE_BITS);
    hw_clear_bits(&clocks_hw->clk[clk_adc].ctrl, CLOCKS_CLK_ADC_CTRL_ENABLE_BITS);
    hw_clear_bits(&clocks_hw->clk[clk_rtc].ctrl, CLOCKS_CLK_RTC_CTRL_ENABLE_BITS);
    // clk_sys onto clk_ref, the crystal (its SRC; AUXSRC left as it was)
    hw_clear_bits(&clocks_hw->clk[clk_sys].ctrl, CLOCKS_CLK_SYS_CTRL_SRC_BITS);
    while (!(clocks_hw->clk[clk_sys].selected & 1u)) {
    }
    pll_saved_t sys_pll, usb_pll;
    pll_down(pll_sys_hw, &sys_pll);
    pll_down(pll_usb_hw, &usb_pll);
    rosc_hw->ctrl = (saved_rosc & ~ROSC_CTRL_ENABLE_BITS)
        | (ROSC_CTRL_ENABLE_VALUE_DISABLE << ROSC_CTRL_ENABLE_LSB);
    timer_hw->intr = bit;
    irq_clear(irq);
    uint32_t at = timer_hw->timerawl + (uint32_t)ms * 1000u;
    timer_hw->alarm[alarm_num] = at;
    clocks_hw->sleep_en0 = 0;
    clocks_hw->sleep_en1 = CLOCKS_SLEEP_EN1_CLK_SYS_TIMER_BITS;
    scb_hw->scr = saved_scr | M0PLUS_SCR_SLEEPDEEP_BITS;
    int status = SLEPT;
    while ((int32_t)(timer_hw->timerawl - at) < 0) {
        __wfi();
        if (nvic_hw->ispr & nvic_hw->iser & ~(1u << irq)) {
            status = WOKEN;
            break;
        }
    }
    scb_hw->scr = saved_scr;
    clocks_hw->sleep_en0 = saved_en0;
    clocks_hw->sleep_en1 = saved_en1;
    hardware_alarm_cancel(alarm_num);
    timer_hw->intr = bit;
    irq_clear(irq);
    rosc_hw->ctrl = saved_rosc;
    pll_up(pll_sys_hw, &sys_pll);
    pll_up(pll_usb_hw, &usb_pll);
    // clk_sys back on PLL_SYS: AUXSRC as saved while SRC is clk_ref, then SRC
    clocks_hw->clk[clk_sys].ctrl = saved_sys & ~CLOCKS_CLK_SYS_CTRL_SRC_BITS;
    clocks_hw->clk[clk_sys].ctrl = saved_sys;
    while (!(clocks_hw->clk[clk_sys].selected & 2u)) {
    }
    clocks_hw->clk[clk_usb].ctrl = saved_usb;
    clocks_hw->clk[clk_adc].ctrl = saved_adc;
    clocks_hw->clk[clk_rtc].ctrl = saved_rtc;
    restore_interrupts(primask);
    return MP_OBJ_NEW_SMALL_INT(status);
}
static MP_DEFINE_CONST_FUN_OBJ_1(refsleep_light_obj, refsleep_light);

static const mp_rom_map_elem_t refsleep_globals_table[] = {
    { MP_ROM_QSTR(MP_QSTR___name__), MP_ROM_QSTR(MP_QSTR_refsleep) },
    { MP_ROM_QSTR(MP_QSTR_init), MP_ROM_PTR(&refsleep_init_obj) },
    { MP_ROM_QSTR(MP_QSTR_offset), MP_ROM_PTR(&refsleep_offset_obj) },
    { MP_ROM_QSTR(MP_QSTR_ticks_ms), MP_ROM_PTR(&refsleep_ticks_ms_obj) },
    { MP_ROM_QSTR(MP_QSTR_ms_of), MP_ROM_PTR(&refsleep_ms_of_obj) },
    { MP_ROM_QSTR(MP_QSTR_sleep), MP_ROM_PTR(&refsleep_sleep_obj) },
    { MP_ROM_QSTR(MP_QSTR_light), MP_ROM_PTR(&refsleep_light_obj) },
    { MP_ROM_QSTR(MP_QSTR_SLEPT), MP_ROM_INT(SLEPT) },
    { MP_ROM_QSTR(MP_QSTR_WOKEN), MP_ROM_INT(WOKEN) },
    { MP_ROM_QSTR(MP_QSTR_NO_REFERENCE), MP_ROM_INT(NO_REFERENCE) },
    { MP_ROM_QSTR(MP_QSTR_OFF_RATE), MP_ROM_INT(OFF_RATE) },
    { MP_ROM_QSTR(MP_QSTR_LOST), MP_ROM_INT(LOST) },
};
static MP_DEFINE_CONST_DICT(refsleep_globals, refsleep_globals_table);

const mp_obj_module_t refsleep_module = {
    .base = { &mp_type_module },
    .globals = (mp_obj_dict_t *)&refsleep_globals,
};

MP_REGISTER_MODULE(MP_QSTR_refsleep, refsleep_module);
