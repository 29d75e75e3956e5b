import { throttle } from '../throttle'

beforeEach(() => {
  jest.useFakeTimers()
})

describe('throttle, immediate (default)', () => {
  it('runs the first call at once and drops calls for 500 ms by default', () => {
    const fn = jest.fn()
    const throttled = throttle(fn)
    throttled('a')
    expect(fn).toHaveBeenCalledTimes(1)
    expect(fn).toHaveBeenLastCalledWith('a')
    throttled('b')
    jest.advanceTimersByTime(499)
    throttled('c')
    expect(fn).toHaveBeenCalledTimes(1)
    jest.advanceTimersByTime(1)
    // No trailing call for the dropped ones.
    expect(fn).toHaveBeenCalledTimes(1)
    throttled('d')
    expect(fn).toHaveBeenCalledTimes(2)
    expect(fn).toHaveBeenLastCalledWith('d')
  })

  it.each([
    [100, [0, 50, 99, 100, 150, 250], 3],
    [500, [0, 100, 200, 300, 400, 500, 999, 1000], 3],
    [0, [0, 0, 0], 1],
  ])('with wait %p, calls at %p ms run %p times', (wait, times, expected) => {
    const fn = jest.fn()
    const throttled = throttle(fn, wait)
    let now = 0
    for (const t of times) {
      // Calls at the same instant stay in the same tick.
      if (t > now) jest.advanceTimersByTime(t - now)
      now = t
      throttled()
    }
    jest.runAllTimers()
    expect(fn).toHaveBeenCalledTimes(expected)
  })

  it('passes this and arguments through', () => {
    const target = {
      count: 0,
      add: throttle(function (this: { count: number }, n: number) {
        this.count += n
      }),
    }
    target.add(3)
    expect(target.count).toBe(3)
  })

  it('keeps the window when fn throws', () => {
    const fn = jest.fn(() => {
      throw new Error('boom')
    })
    const throttled = throttle(fn)
    expect(() => throttled()).toThrow('boom')
    throttled()
    expect(fn).toHaveBeenCalledTimes(1)
  })
})

describe('throttle, not immediate', () => {
  it('runs once at the end of the window with the last arguments', () => {
    const fn = jest.fn()
    const throttled = throttle(fn, 500, false)
    throttled(1)
    throttled(2)
    jest.advanceTimersByTime(300)
    throttled(3)
    expect(fn).not.toHaveBeenCalled()
    jest.advanceTimersByTime(200)
    expect(fn).toHaveBeenCalledTimes(1)
    expect(fn).toHaveBeenLastCalledWith(3)
    // A call after the window opens a new one.
    throttled(4)
    jest.advanceTimersByTime(500)
    expect(fn).toHaveBeenCalledTimes(2)
    expect(fn).toHaveBeenLastCalledWith(4)
  })

  it('runs at most once per window under steady calls', () => {
    const fn = jest.fn()
    const throttled = throttle(fn, 100, false)
    for (let t = 0; t < 1000; t += 10) {
      throttled(t)
      jest.advanceTimersByTime(10)
    }
    jest.runAllTimers()
    expect(fn).toHaveBeenCalledTimes(10)
  })
})

describe('throttle.cancel', () => {
  it('reopens an immediate throttle at once', () => {
    const fn = jest.fn()
    const throttled = throttle(fn)
    throttled()
    throttled.cancel()
    throttled()
    expect(fn).toHaveBeenCalledTimes(2)
  })

  it('drops a pending trailing call', () => {
    const fn = jest.fn()
    const throttled = throttle(fn, 500, false)
    throttled()
    throttled.cancel()
    jest.runAllTimers()
    expect(fn).not.toHaveBeenCalled()
  })

  it('is harmless when nothing is pending', () => {
    const throttled = throttle(jest.fn())
    expect(() => throttled.cancel()).not.toThrow()
  })
})

describe('throttle timers are per wrapped function', () => {
  it('one throttled function does not block another', () => {
    const a = jest.fn()
    const b = jest.fn()
    const ta = throttle(a)
    const tb = throttle(b)
    ta()
    tb()
    expect(a).toHaveBeenCalledTimes(1)
    expect(b).toHaveBeenCalledTimes(1)
  })

  it('cancelling one does not cancel another', () => {
    const a = jest.fn()
    const b = jest.fn()
    const ta = throttle(a, 500, false)
    const tb = throttle(b, 500, false)
    ta()
    tb()
    ta.cancel()
    jest.runAllTimers()
    expect(a).not.toHaveBeenCalled()
    expect(b).toHaveBeenCalledTimes(1)
  })

  it('two wrappers of the same function are independent', () => {
    const fn = jest.fn()
    const first = throttle(fn)
    const second = throttle(fn)
    first()
    second()
    expect(fn).toHaveBeenCalledTimes(2)
  })
})
