; widening i16 -> f32 (llvm.tpc.convert, single lane): f32 lane i takes i16
; element 2i + lane_sel; out0 with lane_sel 0, out1 with lane_sel 1 (switch 1)
target triple = "tpc"

define void @main() {
entry:
  %off = call <5 x i32> @llvm.tpc.get.index.space.offset()
  %size = call <5 x i32> @llvm.tpc.get.index.space.size()
  %first = extractelement <5 x i32> %off, i32 0
  %n = extractelement <5 x i32> %size, i32 0
  %last = add i32 %first, %n
  br label %body

body:
  %i = phi i32 [ %first, %entry ], [ %next, %body ]
  %xs = mul i32 %i, 128
  %cs = insertelement <5 x i32> zeroinitializer, i32 %xs, i32 0
  %xf = mul i32 %i, 64
  %cf = insertelement <5 x i32> zeroinitializer, i32 %xf, i32 0
  %a = call <128 x i16> @llvm.tpc.ld.tnsr.v128i16.i1(<5 x i32> %cs, i8 0, i32 0, <128 x i16> undef, i1 true, i1 false)
  %r0 = call <64 x float> @llvm.tpc.convert.v64f32.v128i16.i1(<128 x i16> %a, i8 7, i32 0, <64 x float> undef, i1 true, i1 false)
  %r1 = call <64 x float> @llvm.tpc.convert.v64f32.v128i16.i1(<128 x i16> %a, i8 7, i32 1, <64 x float> undef, i1 true, i1 false)
  call void @llvm.tpc.st.tnsr.v64f32(<5 x i32> %cf, i8 1, <64 x float> %r0, i32 0, i1 true, i1 false)
  call void @llvm.tpc.st.tnsr.v64f32(<5 x i32> %cf, i8 2, <64 x float> %r1, i32 0, i1 true, i1 false)
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %last
  br i1 %more, label %body, label %exit

exit:
  ret void
}

declare <5 x i32> @llvm.tpc.get.index.space.offset()
declare <5 x i32> @llvm.tpc.get.index.space.size()
declare <128 x i16> @llvm.tpc.ld.tnsr.v128i16.i1(<5 x i32>, i8, i32, <128 x i16>, i1, i1)
declare <64 x float> @llvm.tpc.convert.v64f32.v128i16.i1(<128 x i16>, i8, i32, <64 x float>, i1, i1)
declare void @llvm.tpc.st.tnsr.v64f32(<5 x i32>, i8, <64 x float>, i32, i1, i1)
