// RUN: hlo-opt %s --split-input-file --passes=while-loop-trip-count-annotator | FileCheck %s

// i = 0; i < 10; i += 1: 10 trips, counting up from 0 by 1.
// CHECK-LABEL: func.func @count_up(
// CHECK:         hlo.while {{.*}} {hlo.backend_config = "{\22known_induction_variable\22:{\22tuple_index\22:\220\22},\22known_init_step\22:{\22init\22:\220\22,\22step\22:\221\22},\22known_trip_count\22:{\22n\22:\2210\22}}"}
func.func private @count_up_cond(%p: tuple<tensor<i32>, tensor<f32>>) -> tensor<i1> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<i32>
  %n = hlo.constant dense<10> : tensor<i32>
  %c = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %c : tensor<i1>
}
func.func private @count_up_body(%p: tuple<tensor<i32>, tensor<f32>>) -> tuple<tensor<i32>, tensor<f32>> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<i32>
  %x = hlo.get_tuple_element %p[1] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<f32>
  %c = hlo.constant dense<1> : tensor<i32>
  %i2 = hlo.add %c, %i : tensor<i32>
  %x2 = hlo.sine %x : tensor<f32>
  %r = hlo.tuple %i2, %x2 : (tensor<i32>, tensor<f32>) -> tuple<tensor<i32>, tensor<f32>>
  return %r : tuple<tensor<i32>, tensor<f32>>
}
func.func @count_up(%a: tensor<f32>) -> tuple<tensor<i32>, tensor<f32>> {
  %z = hlo.constant dense<0> : tensor<i32>
  %t = hlo.tuple %z, %a : (tensor<i32>, tensor<f32>) -> tuple<tensor<i32>, tensor<f32>>
  %w = hlo.while %t, condition = @count_up_cond, body = @count_up_body : (tuple<tensor<i32>, tensor<f32>>) -> tuple<tensor<i32>, tensor<f32>>
  return %w : tuple<tensor<i32>, tensor<f32>>
}

// -----

// i = 1; i <= 10; i += 3: i = 1, 4, 7, 10, so 4 trips.
// CHECK-LABEL: func.func @step_not_dividing(
// CHECK:         hlo.while {{.*}} {hlo.backend_config = "{\22known_induction_variable\22:{\22tuple_index\22:\220\22},\22known_init_step\22:{\22init\22:\221\22,\22step\22:\223\22},\22known_trip_count\22:{\22n\22:\224\22}}"}
func.func private @step_not_dividing_cond(%p: tuple<tensor<i32>, tensor<f32>>) -> tensor<i1> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<i32>
  %n = hlo.constant dense<10> : tensor<i32>
  %c = hlo.compare LE, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %c : tensor<i1>
}
func.func private @step_not_dividing_body(%p: tuple<tensor<i32>, tensor<f32>>) -> tuple<tensor<i32>, tensor<f32>> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<i32>
  %x = hlo.get_tuple_element %p[1] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<f32>
  %c = hlo.constant dense<3> : tensor<i32>
  %i2 = hlo.add %c, %i : tensor<i32>
  %x2 = hlo.sine %x : tensor<f32>
  %r = hlo.tuple %i2, %x2 : (tensor<i32>, tensor<f32>) -> tuple<tensor<i32>, tensor<f32>>
  return %r : tuple<tensor<i32>, tensor<f32>>
}
func.func @step_not_dividing(%a: tensor<f32>) -> tuple<tensor<i32>, tensor<f32>> {
  %z = hlo.constant dense<1> : tensor<i32>
  %t = hlo.tuple %z, %a : (tensor<i32>, tensor<f32>) -> tuple<tensor<i32>, tensor<f32>>
  %w = hlo.while %t, condition = @step_not_dividing_cond, body = @step_not_dividing_body : (tuple<tensor<i32>, tensor<f32>>) -> tuple<tensor<i32>, tensor<f32>>
  return %w : tuple<tensor<i32>, tensor<f32>>
}

// -----

// i = 10; i > 0; i -= 2: 5 trips (no known_init_step: the step is negative).
// CHECK-LABEL: func.func @count_down(
// CHECK:         hlo.while {{.*}} {hlo.backend_config = "{\22known_induction_variable\22:{\22tuple_index\22:\220\22},\22known_trip_count\22:{\22n\22:\225\22}}"}
func.func private @count_down_cond(%p: tuple<tensor<i64>, tensor<f32>>) -> tensor<i1> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i64>, tensor<f32>>) -> tensor<i64>
  %n = hlo.constant dense<0> : tensor<i64>
  %c = hlo.compare GT, %i, %n : (tensor<i64>, tensor<i64>) -> tensor<i1>
  return %c : tensor<i1>
}
func.func private @count_down_body(%p: tuple<tensor<i64>, tensor<f32>>) -> tuple<tensor<i64>, tensor<f32>> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i64>, tensor<f32>>) -> tensor<i64>
  %x = hlo.get_tuple_element %p[1] : (tuple<tensor<i64>, tensor<f32>>) -> tensor<f32>
  %c = hlo.constant dense<2> : tensor<i64>
  %i2 = hlo.subtract %i, %c : tensor<i64>
  %x2 = hlo.sine %x : tensor<f32>
  %r = hlo.tuple %i2, %x2 : (tensor<i64>, tensor<f32>) -> tuple<tensor<i64>, tensor<f32>>
  return %r : tuple<tensor<i64>, tensor<f32>>
}
func.func @count_down(%a: tensor<f32>) -> tuple<tensor<i64>, tensor<f32>> {
  %z = hlo.constant dense<10> : tensor<i64>
  %t = hlo.tuple %z, %a : (tensor<i64>, tensor<f32>) -> tuple<tensor<i64>, tensor<f32>>
  %w = hlo.while %t, condition = @count_down_cond, body = @count_down_body : (tuple<tensor<i64>, tensor<f32>>) -> tuple<tensor<i64>, tensor<f32>>
  return %w : tuple<tensor<i64>, tensor<f32>>
}

// -----

// 5 > i with i = 3, i += 3: one trip.
// CHECK-LABEL: func.func @bound_on_left(
// CHECK:         hlo.while {{.*}} {hlo.backend_config = "{\22known_induction_variable\22:{\22tuple_index\22:\220\22},\22known_init_step\22:{\22init\22:\223\22,\22step\22:\223\22},\22known_trip_count\22:{\22n\22:\221\22}}"}
func.func private @bound_on_left_cond(%p: tuple<tensor<i32>, tensor<f32>>) -> tensor<i1> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<i32>
  %n = hlo.constant dense<5> : tensor<i32>
  %c = hlo.compare GT, %n, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %c : tensor<i1>
}
func.func private @bound_on_left_body(%p: tuple<tensor<i32>, tensor<f32>>) -> tuple<tensor<i32>, tensor<f32>> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<i32>
  %x = hlo.get_tuple_element %p[1] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<f32>
  %c = hlo.constant dense<3> : tensor<i32>
  %i2 = hlo.add %c, %i : tensor<i32>
  %x2 = hlo.sine %x : tensor<f32>
  %r = hlo.tuple %i2, %x2 : (tensor<i32>, tensor<f32>) -> tuple<tensor<i32>, tensor<f32>>
  return %r : tuple<tensor<i32>, tensor<f32>>
}
func.func @bound_on_left(%a: tensor<f32>) -> tuple<tensor<i32>, tensor<f32>> {
  %z = hlo.constant dense<3> : tensor<i32>
  %t = hlo.tuple %z, %a : (tensor<i32>, tensor<f32>) -> tuple<tensor<i32>, tensor<f32>>
  %w = hlo.while %t, condition = @bound_on_left_cond, body = @bound_on_left_body : (tuple<tensor<i32>, tensor<f32>>) -> tuple<tensor<i32>, tensor<f32>>
  return %w : tuple<tensor<i32>, tensor<f32>>
}

// -----

// i = 7; i < 7: no trips.
// CHECK-LABEL: func.func @zero_trips(
// CHECK:         hlo.while {{.*}} {hlo.backend_config = "{\22known_induction_variable\22:{\22tuple_index\22:\220\22},\22known_init_step\22:{\22init\22:\227\22,\22step\22:\221\22},\22known_trip_count\22:{\22n\22:\220\22}}"}
func.func private @zero_trips_cond(%p: tuple<tensor<ui32>, tensor<f32>>) -> tensor<i1> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<ui32>, tensor<f32>>) -> tensor<ui32>
  %n = hlo.constant dense<7> : tensor<ui32>
  %c = hlo.compare LT, %i, %n : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
  return %c : tensor<i1>
}
func.func private @zero_trips_body(%p: tuple<tensor<ui32>, tensor<f32>>) -> tuple<tensor<ui32>, tensor<f32>> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<ui32>, tensor<f32>>) -> tensor<ui32>
  %x = hlo.get_tuple_element %p[1] : (tuple<tensor<ui32>, tensor<f32>>) -> tensor<f32>
  %c = hlo.constant dense<1> : tensor<ui32>
  %i2 = hlo.add %c, %i : tensor<ui32>
  %x2 = hlo.sine %x : tensor<f32>
  %r = hlo.tuple %i2, %x2 : (tensor<ui32>, tensor<f32>) -> tuple<tensor<ui32>, tensor<f32>>
  return %r : tuple<tensor<ui32>, tensor<f32>>
}
func.func @zero_trips(%a: tensor<f32>) -> tuple<tensor<ui32>, tensor<f32>> {
  %z = hlo.constant dense<7> : tensor<ui32>
  %t = hlo.tuple %z, %a : (tensor<ui32>, tensor<f32>) -> tuple<tensor<ui32>, tensor<f32>>
  %w = hlo.while %t, condition = @zero_trips_cond, body = @zero_trips_body : (tuple<tensor<ui32>, tensor<f32>>) -> tuple<tensor<ui32>, tensor<f32>>
  return %w : tuple<tensor<ui32>, tensor<f32>>
}

// -----

// i = 0; i != 10; i += 2: 5 trips.
// CHECK-LABEL: func.func @not_equal(
// CHECK:         hlo.while {{.*}} {hlo.backend_config = "{\22known_induction_variable\22:{\22tuple_index\22:\220\22},\22known_init_step\22:{\22init\22:\220\22,\22step\22:\222\22},\22known_trip_count\22:{\22n\22:\225\22}}"}
func.func private @not_equal_cond(%p: tuple<tensor<i32>, tensor<f32>>) -> tensor<i1> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<i32>
  %n = hlo.constant dense<10> : tensor<i32>
  %c = hlo.compare NE, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %c : tensor<i1>
}
func.func private @not_equal_body(%p: tuple<tensor<i32>, tensor<f32>>) -> tuple<tensor<i32>, tensor<f32>> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<i32>
  %x = hlo.get_tuple_element %p[1] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<f32>
  %c = hlo.constant dense<2> : tensor<i32>
  %i2 = hlo.add %c, %i : tensor<i32>
  %x2 = hlo.sine %x : tensor<f32>
  %r = hlo.tuple %i2, %x2 : (tensor<i32>, tensor<f32>) -> tuple<tensor<i32>, tensor<f32>>
  return %r : tuple<tensor<i32>, tensor<f32>>
}
func.func @not_equal(%a: tensor<f32>) -> tuple<tensor<i32>, tensor<f32>> {
  %z = hlo.constant dense<0> : tensor<i32>
  %t = hlo.tuple %z, %a : (tensor<i32>, tensor<f32>) -> tuple<tensor<i32>, tensor<f32>>
  %w = hlo.while %t, condition = @not_equal_cond, body = @not_equal_body : (tuple<tensor<i32>, tensor<f32>>) -> tuple<tensor<i32>, tensor<f32>>
  return %w : tuple<tensor<i32>, tensor<f32>>
}

// -----

// i = 1; i < 100; i *= 2: no closed form, evaluated: 1, 2, ..., 64, so 7 trips.
// CHECK-LABEL: func.func @brute_force(
// CHECK:         hlo.while {{.*}} {hlo.backend_config = "{\22known_induction_variable\22:{\22tuple_index\22:\220\22},\22known_trip_count\22:{\22n\22:\227\22}}"}
func.func private @brute_force_cond(%p: tuple<tensor<i32>, tensor<f32>>) -> tensor<i1> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<i32>
  %n = hlo.constant dense<100> : tensor<i32>
  %c = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %c : tensor<i1>
}
func.func private @brute_force_body(%p: tuple<tensor<i32>, tensor<f32>>) -> tuple<tensor<i32>, tensor<f32>> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<i32>
  %x = hlo.get_tuple_element %p[1] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<f32>
  %c = hlo.constant dense<2> : tensor<i32>
  %i2 = hlo.multiply %i, %c : tensor<i32>
  %x2 = hlo.sine %x : tensor<f32>
  %r = hlo.tuple %i2, %x2 : (tensor<i32>, tensor<f32>) -> tuple<tensor<i32>, tensor<f32>>
  return %r : tuple<tensor<i32>, tensor<f32>>
}
func.func @brute_force(%a: tensor<f32>) -> tuple<tensor<i32>, tensor<f32>> {
  %z = hlo.constant dense<1> : tensor<i32>
  %t = hlo.tuple %z, %a : (tensor<i32>, tensor<f32>) -> tuple<tensor<i32>, tensor<f32>>
  %w = hlo.while %t, condition = @brute_force_cond, body = @brute_force_body : (tuple<tensor<i32>, tensor<f32>>) -> tuple<tensor<i32>, tensor<f32>>
  return %w : tuple<tensor<i32>, tensor<f32>>
}

// -----

// An existing backend config keeps its other keys; known keys are replaced.
// CHECK-LABEL: func.func @merge_config(
// CHECK:         hlo.backend_config = "{\22other\22:[1, {\22a\22: 2}],\22known_trip_count\22:{\22n\22:\223\22},\22known_induction_variable\22:{\22tuple_index\22:\220\22},\22known_init_step\22:{\22init\22:\220\22,\22step\22:\221\22}}"
func.func private @merge_config_cond(%p: tuple<tensor<i32>, tensor<f32>>) -> tensor<i1> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<i32>
  %n = hlo.constant dense<3> : tensor<i32>
  %c = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %c : tensor<i1>
}
func.func private @merge_config_body(%p: tuple<tensor<i32>, tensor<f32>>) -> tuple<tensor<i32>, tensor<f32>> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<i32>
  %x = hlo.get_tuple_element %p[1] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<f32>
  %c = hlo.constant dense<1> : tensor<i32>
  %i2 = hlo.add %c, %i : tensor<i32>
  %x2 = hlo.sine %x : tensor<f32>
  %r = hlo.tuple %i2, %x2 : (tensor<i32>, tensor<f32>) -> tuple<tensor<i32>, tensor<f32>>
  return %r : tuple<tensor<i32>, tensor<f32>>
}
func.func @merge_config(%a: tensor<f32>) -> tuple<tensor<i32>, tensor<f32>> {
  %z = hlo.constant dense<0> : tensor<i32>
  %t = hlo.tuple %z, %a : (tensor<i32>, tensor<f32>) -> tuple<tensor<i32>, tensor<f32>>
  %w = hlo.while %t, condition = @merge_config_cond, body = @merge_config_body {hlo.backend_config = "{\22other\22: [1, {\22a\22: 2}], \22known_trip_count\22:{\22n\22:\2299\22}}"} : (tuple<tensor<i32>, tensor<f32>>) -> tuple<tensor<i32>, tensor<f32>>
  return %w : tuple<tensor<i32>, tensor<f32>>
}

// -----

// Must not fire: i8 i <= 127 holds for every i8 (the counter would wrap).
// CHECK-LABEL: func.func @wraps(
// CHECK:         hlo.while
// CHECK-NOT:     hlo.backend_config
func.func private @wraps_cond(%p: tuple<tensor<i8>, tensor<f32>>) -> tensor<i1> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i8>, tensor<f32>>) -> tensor<i8>
  %n = hlo.constant dense<127> : tensor<i8>
  %c = hlo.compare LE, %i, %n : (tensor<i8>, tensor<i8>) -> tensor<i1>
  return %c : tensor<i1>
}
func.func private @wraps_body(%p: tuple<tensor<i8>, tensor<f32>>) -> tuple<tensor<i8>, tensor<f32>> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i8>, tensor<f32>>) -> tensor<i8>
  %x = hlo.get_tuple_element %p[1] : (tuple<tensor<i8>, tensor<f32>>) -> tensor<f32>
  %c = hlo.constant dense<1> : tensor<i8>
  %i2 = hlo.add %c, %i : tensor<i8>
  %x2 = hlo.sine %x : tensor<f32>
  %r = hlo.tuple %i2, %x2 : (tensor<i8>, tensor<f32>) -> tuple<tensor<i8>, tensor<f32>>
  return %r : tuple<tensor<i8>, tensor<f32>>
}
func.func @wraps(%a: tensor<f32>) -> tuple<tensor<i8>, tensor<f32>> {
  %z = hlo.constant dense<0> : tensor<i8>
  %t = hlo.tuple %z, %a : (tensor<i8>, tensor<f32>) -> tuple<tensor<i8>, tensor<f32>>
  %w = hlo.while %t, condition = @wraps_cond, body = @wraps_body : (tuple<tensor<i8>, tensor<f32>>) -> tuple<tensor<i8>, tensor<f32>>
  return %w : tuple<tensor<i8>, tensor<f32>>
}

// -----

// Must not fire: i != 9 with i = 0, 2, 4, ... never becomes false before wrapping.
// CHECK-LABEL: func.func @never_reached(
// CHECK:         hlo.while
// CHECK-NOT:     hlo.backend_config
func.func private @never_reached_cond(%p: tuple<tensor<i32>, tensor<f32>>) -> tensor<i1> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<i32>
  %n = hlo.constant dense<9> : tensor<i32>
  %c = hlo.compare NE, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %c : tensor<i1>
}
func.func private @never_reached_body(%p: tuple<tensor<i32>, tensor<f32>>) -> tuple<tensor<i32>, tensor<f32>> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<i32>
  %x = hlo.get_tuple_element %p[1] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<f32>
  %c = hlo.constant dense<2> : tensor<i32>
  %i2 = hlo.add %c, %i : tensor<i32>
  %x2 = hlo.sine %x : tensor<f32>
  %r = hlo.tuple %i2, %x2 : (tensor<i32>, tensor<f32>) -> tuple<tensor<i32>, tensor<f32>>
  return %r : tuple<tensor<i32>, tensor<f32>>
}
func.func @never_reached(%a: tensor<f32>) -> tuple<tensor<i32>, tensor<f32>> {
  %z = hlo.constant dense<0> : tensor<i32>
  %t = hlo.tuple %z, %a : (tensor<i32>, tensor<f32>) -> tuple<tensor<i32>, tensor<f32>>
  %w = hlo.while %t, condition = @never_reached_cond, body = @never_reached_body : (tuple<tensor<i32>, tensor<f32>>) -> tuple<tensor<i32>, tensor<f32>>
  return %w : tuple<tensor<i32>, tensor<f32>>
}

// -----

// Must not fire: counting away from the bound.
// CHECK-LABEL: func.func @away_from_bound(
// CHECK:         hlo.while
// CHECK-NOT:     hlo.backend_config
func.func private @away_from_bound_cond(%p: tuple<tensor<i32>, tensor<f32>>) -> tensor<i1> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<i32>
  %n = hlo.constant dense<10> : tensor<i32>
  %c = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %c : tensor<i1>
}
func.func private @away_from_bound_body(%p: tuple<tensor<i32>, tensor<f32>>) -> tuple<tensor<i32>, tensor<f32>> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<i32>
  %x = hlo.get_tuple_element %p[1] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<f32>
  %c = hlo.constant dense<1> : tensor<i32>
  %i2 = hlo.subtract %i, %c : tensor<i32>
  %x2 = hlo.sine %x : tensor<f32>
  %r = hlo.tuple %i2, %x2 : (tensor<i32>, tensor<f32>) -> tuple<tensor<i32>, tensor<f32>>
  return %r : tuple<tensor<i32>, tensor<f32>>
}
func.func @away_from_bound(%a: tensor<f32>) -> tuple<tensor<i32>, tensor<f32>> {
  %z = hlo.constant dense<0> : tensor<i32>
  %t = hlo.tuple %z, %a : (tensor<i32>, tensor<f32>) -> tuple<tensor<i32>, tensor<f32>>
  %w = hlo.while %t, condition = @away_from_bound_cond, body = @away_from_bound_body : (tuple<tensor<i32>, tensor<f32>>) -> tuple<tensor<i32>, tensor<f32>>
  return %w : tuple<tensor<i32>, tensor<f32>>
}

// -----

// Must not fire: the bound is not a constant.
// CHECK-LABEL: func.func @runtime_bound(
// CHECK:         hlo.while
// CHECK-NOT:     hlo.backend_config
func.func private @runtime_bound_cond(%p: tuple<tensor<i32>, tensor<i32>>) -> tensor<i1> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<i32>>) -> tensor<i32>
  %n = hlo.get_tuple_element %p[1] : (tuple<tensor<i32>, tensor<i32>>) -> tensor<i32>
  %c = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %c : tensor<i1>
}
func.func private @runtime_bound_body(%p: tuple<tensor<i32>, tensor<i32>>) -> tuple<tensor<i32>, tensor<i32>> {
  %i = hlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<i32>>) -> tensor<i32>
  %n = hlo.get_tuple_element %p[1] : (tuple<tensor<i32>, tensor<i32>>) -> tensor<i32>
  %one = hlo.constant dense<1> : tensor<i32>
  %i2 = hlo.add %i, %one : tensor<i32>
  %r = hlo.tuple %i2, %n : (tensor<i32>, tensor<i32>) -> tuple<tensor<i32>, tensor<i32>>
  return %r : tuple<tensor<i32>, tensor<i32>>
}
func.func @runtime_bound(%n: tensor<i32>) -> tuple<tensor<i32>, tensor<i32>> {
  %z = hlo.constant dense<0> : tensor<i32>
  %t = hlo.tuple %z, %n : (tensor<i32>, tensor<i32>) -> tuple<tensor<i32>, tensor<i32>>
  %w = hlo.while %t, condition = @runtime_bound_cond, body = @runtime_bound_body : (tuple<tensor<i32>, tensor<i32>>) -> tuple<tensor<i32>, tensor<i32>>
  return %w : tuple<tensor<i32>, tensor<i32>>
}
