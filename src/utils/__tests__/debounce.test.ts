import { debounce } from '../debounce'

beforeEach(() => {
  jest.useFakeTimers()
})

describe('debounce, trailing (default)', () => {
  it('runs 500 ms after the last call, with its arguments', () => {
    const fn = jest.fn()
    const debounced = debounce(fn)
    debounced('a')
    jest.advanceTimersByTime(300)
    debounced('b')
    jest.advanceTimersByTime(499)
    expect(fn).not.toHaveBeenCalled()
    jest.advanceTimersByTime(1)
    expect(fn).toHaveBeenCalledTimes(1)
    expect(fn).toHaveBeenLastCalledWith('b')
  })

  it.each([
    [100, [0, 50, 99, 198], 1],
    [100, [0, 100, 200], 3],
    [100, [0, 99, 200, 299], 2],
    [500, [0, 400, 800, 1200, 1600], 1],
    [0, [0, 0, 0], 1],
  ])('with wait %p, calls at %p ms run %p times', (wait, times, expected) => {
    const fn = jest.fn()
    const debounced = debounce(fn, wait)
    let now = 0
    for (const t of times) {
      // Calls at the same instant stay in the same tick.
      if (t > now) jest.advanceTimersByTime(t - now)
      now = t
      debounced()
    }
    jest.runAllTimers()
    expect(fn).toHaveBeenCalledTimes(expected)
  })

  it('passes this through', () => {
    const target = {
      value: '',
      set: debounce(function (this: { value: string }, v: string) {
        this.value = v
      }),
    }
    target.set('x')
    jest.runAllTimers()
    expect(target.value).toBe('x')
  })
})

describe('debounce, immediate', () => {
  it('runs the first call of a burst at once and ignores the rest', () => {
    const fn = jest.fn()
    const debounced = debounce(fn, 500, true)
    debounced(1)
    expect(fn).toHaveBeenCalledTimes(1)
    expect(fn).toHaveBeenLastCalledWith(1)
    jest.advanceTimersByTime(400)
    debounced(2)
    jest.advanceTimersByTime(400)
    // 800 ms after the first call, but only 400 ms after the last one: still quiet period.
    debounced(3)
    expect(fn).toHaveBeenCalledTimes(1)
    jest.advanceTimersByTime(500)
    expect(fn).toHaveBeenCalledTimes(1)
    debounced(4)
    expect(fn).toHaveBeenCalledTimes(2)
    expect(fn).toHaveBeenLastCalledWith(4)
  })
})

describe('debounce.cancel', () => {
  it('drops a pending trailing call', () => {
    const fn = jest.fn()
    const debounced = debounce(fn)
    debounced()
    debounced.cancel()
    jest.runAllTimers()
    expect(fn).not.toHaveBeenCalled()
  })

  it('ends the quiet period of an immediate debounce', () => {
    const fn = jest.fn()
    const debounced = debounce(fn, 500, true)
    debounced()
    debounced.cancel()
    debounced()
    expect(fn).toHaveBeenCalledTimes(2)
  })
})

describe('debounce timers are per wrapped function', () => {
  it('a call to one does not cancel the pending call of another', () => {
    const a = jest.fn()
    const b = jest.fn()
    const da = debounce(a)
    const db = debounce(b)
    da('a')
    db('b')
    jest.runAllTimers()
    expect(a).toHaveBeenCalledWith('a')
    expect(b).toHaveBeenCalledWith('b')
  })

  it('cancelling one leaves the other pending', () => {
    const a = jest.fn()
    const b = jest.fn()
    const da = debounce(a)
    const db = debounce(b)
    da()
    db()
    da.cancel()
    jest.runAllTimers()
    expect(a).not.toHaveBeenCalled()
    expect(b).toHaveBeenCalledTimes(1)
  })
})
